import { describeLedgerModel } from './ledger-model-run.js';

// The second lane of the ledger model (ledger-model.test.ts): its share of the sequences, in a
// worker process of its own, so that both cores run sequences.
describeLedgerModel(2);
