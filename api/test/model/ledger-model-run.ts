import fc from 'fast-check';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetDatabase } from '../helpers/build-test-app.js';
import { createUserWithSession } from '../helpers/users.js';
import { startPaymentsHarness } from '../routes/payments/payments-test-kit.js';
import { COMMANDS } from './ledger-model-commands.js';
import { checkInvariants, quiesce } from './ledger-model-invariants.js';
import { BOAT_CENTS, YACHT_CENTS, openOrder, world, type Model, type Real } from './ledger-model-world.js';

// The runner of the ledger model (see ledger-model.test.ts): one lane's share of the sequences.

const onPostgres = Boolean(process.env.DATABASE_URL);
const DEFAULT_RUNS = process.env.LEDGER_MODEL_LONG ? (onPostgres ? 500 : 2000) : onPostgres ? 20 : 36;
/** the sequences of all lanes together */
const RUNS = Number(process.env.LEDGER_MODEL_RUNS ?? DEFAULT_RUNS);
const MAX_COMMANDS = Number(process.env.LEDGER_MODEL_MAX_COMMANDS ?? 20);
const SEED = process.env.LEDGER_MODEL_SEED ? Number(process.env.LEDGER_MODEL_SEED) : undefined;
/** test files that each run a share of the sequences, in worker processes of their own (one per core) */
export const LANES = 2;

/** Lane `lane` (1-based) runs its share; with a seed, lane 1 runs them all, so that the seed replays. */
function runsOfLane(lane: number): number {
  if (SEED !== undefined) return lane === 1 ? RUNS : 0;
  return Math.floor(RUNS / LANES) + (lane <= RUNS % LANES ? 1 : 0);
}

// The app's Stripe SDK retries a request whose answer was cut off (the refund timeouts) after
// half a second, then a second: the same requests, with the same idempotency key, after 2-4 ms here.
const sdk = Stripe.prototype as unknown as { getInitialNetworkRetryDelay(): number; getMaxNetworkRetryDelay(): number };

function setUpLane() {
  const shortRetries: { mockRestore(): void }[] = [];
  beforeAll(async () => {
    shortRetries.push(
      vi.spyOn(sdk, 'getInitialNetworkRetryDelay').mockReturnValue(0.002),
      vi.spyOn(sdk, 'getMaxNetworkRetryDelay').mockReturnValue(0.004),
    );
    world.harness = await startPaymentsHarness();
    await resetDatabase(world.harness.app);
    world.admins = [
      await createUserWithSession(world.harness.app, { roles: ['user', 'admin'] }),
      await createUserWithSession(world.harness.app, { roles: ['user', 'admin'] }),
    ];
  });
  afterAll(async () => {
    for (const spy of shortRetries) spy.mockRestore();
    await world.harness?.close();
  });
}

async function insertBoat(priceCents: number, category: 'sailing-boats' | 'yachts') {
  const row = await world.harness.app.db
    .insertInto('products')
    .values({
      name: `Model ${category} ${Math.random().toString(36).slice(2, 8)}`,
      thumbnail_url: '/api/images/boat.svg',
      price_cents: priceCents,
      category,
      created_by: null,
      stock_on_hand: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let runNumber = 0;

export function describeLedgerModel(lane: number) {
  const runs = runsOfLane(lane);
  describe.skipIf(runs === 0)(`the order ledger, model-based (lane ${lane} of ${LANES})`, () => {
    setUpLane();
    it(
      `keeps every euro and every boat accounted for over ${runs} random sequences`,
      () => runLane(runs),
      Math.max(120_000, runs * 20_000),
    );
  });
}

async function runLane(runs: number) {
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS, size: 'max' }), async (cmds) => {
      runNumber += 1;
      world.harness.setWebhooksReachable(true);
      const real: Real = {
        shoppers: [await createUserWithSession(world.harness.app), await createUserWithSession(world.harness.app)],
        boat: await insertBoat(BOAT_CENTS, 'sailing-boats'),
        yacht: await insertBoat(YACHT_CENTS, 'yachts'),
        address: `10.${(runNumber >> 8) & 255}.${runNumber & 255}.${Math.floor(Math.random() * 250) + 1}`,
        serial: 0,
      };
      const model: Model = {
        orders: [],
        bankIn: new Map(),
        bankOut: new Map(),
        disputes: [],
        firstEvent: world.harness.captured.length,
        log: [],
      };
      try {
        // Every sequence starts with an order for each boat, so that its commands have work.
        await openOrder(model, real, 0, 'boat');
        await openOrder(model, real, 1, 'yacht');
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await quiesce(model, real);
        await checkInvariants(model, real);
      } finally {
        world.harness.setWebhooksReachable(true);
      }
    }),
    {
      numRuns: runs,
      ...(SEED !== undefined ? { seed: SEED } : {}),
      // The shrunk sequence, printed when a run fails.
      verbose: 1,
      endOnFailure: false,
    },
  );
  const seconds = (Date.now() - started) / 1000;
  console.info(`ledger model: ${runs} sequences in ${seconds.toFixed(1)} s (${(seconds / runs).toFixed(2)} s each)`);
  console.info(`ledger model reached: ${JSON.stringify(Object.fromEntries([...world.reached].sort()))}`);
  expect(world.failures).toEqual([]);
}
