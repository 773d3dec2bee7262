import { describeLedgerModel } from './ledger-model-run.js';

// A model-based test of the order ledger: fast-check draws sequences of what shoppers, two admins,
// the card provider (the Stripe stand-in) and the bank do to two one-off boats (a sailing boat paid
// in full by card, a yacht reserved with a deposit), runs them against the real API, and after every
// sequence checks what must always hold:
//   - the ledger equals the provider's truth (captures, refunds, disputes) and the bank lines recorded;
//   - nothing is shipped with money missing or at risk;
//   - a one-off boat is held by at most one open order, never sold twice, and its counters agree;
//   - nothing is refunded beyond what was received (in the ledger and at the provider);
//   - each shopper e-mail goes out at most once per event; no answer is a 5xx.
// Webhooks can be held back (an outage), then delivered shuffled and replayed; refund answers can be
// cut off (a timeout). A failure prints the shrunk sequence (fast-check's counterexample).
//
// LEDGER_MODEL_RUNS sets the number of sequences (default below fits the normal suite's time budget);
// `npm run test:model -w api` runs the long version.

// Measured on the shared 2-core machine: about 0.75 s a sequence on PGlite, 0.7 s on PostgreSQL.
// In the normal suite 36 (PGlite, about 23 s) and 20 (PostgreSQL, about 14 s), measured alone; the long run
// (LEDGER_MODEL_LONG=1, npm run test:model) 2,000 and 500.
describeLedgerModel(1);
