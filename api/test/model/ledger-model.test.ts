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
// The sequences run in two lanes, this file and ledger-model-lane-2.test.ts (one runner,
// ledger-model-run.ts), in two worker processes: PGlite runs one database on one thread.
// LEDGER_MODEL_RUNS sets the number of sequences of both lanes together (36 on PGlite and 20 on
// PostgreSQL by default, in `npm test -w api`); LEDGER_MODEL_LONG=1 (`npm run test:model -w api`,
// npm test's model stage) 2,000 and 500; LEDGER_MODEL_SEED replays a run (lane 1 runs it all).
//
// Nothing waits on the clock: a sequence ends when the stand-in has no webhook under way, and the
// SDK's retries come after milliseconds. Measured on the shared 2-core machine under load (load
// average 9 to 23): 0.72 s a PGlite sequence against 0.88 s before, same seed, same moment; what is
// left is CPU, half of it PGlite running the API's queries (docs/ledger.md).
describeLedgerModel(1);
