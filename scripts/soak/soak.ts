// npm run soak: the shop as several replicas behind nginx (npm run start:cluster, or one already
// running: SOAK_CLUSTER_STATE), driven for SOAK_SECONDS (300) or SOAK_MAX_REQUESTS by virtual
// users on loopback, while replicas are killed and Redis and PostgreSQL restarted. Prints what
// the users saw and checks the books; exits 1 when a check fails. See docs/cluster.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkJobs, checkMails, checkPayments, checkStock, type BookCheck } from './books.js';
import { SoakClient } from './client.js';
import {
  assertPgClusterIsTheDatabase,
  killReplica,
  parseFaults,
  readState,
  restartPostgres,
  restartRedis,
  restoreServices,
  type FaultRecord,
} from './faults.js';
import { printReport } from './report.js';
import { SoakStats } from './stats.js';
import { accountant, ADDRESS, buyer, running, visitor, type Product, type SoakWorld } from './users.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = process.env;

function count(name: string, fallback: number, min = 0): number {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name}=${raw} must be a whole number ≥ ${min}`);
  return value;
}

const seconds = count('SOAK_SECONDS', 300, 5);
const maxRequests = count('SOAK_MAX_REQUESTS', 200_000, 1);
const faults = parseFaults(env.SOAK_FAULTS);
const apiKillEvery = count('SOAK_API_KILL_EVERY', 60, 5);
const databaseUrl = env.DATABASE_URL ?? '';
const loopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
if (!databaseUrl.startsWith('postgres') || !loopback(databaseUrl)) throw new Error('DATABASE_URL must name a PostgreSQL on this machine');
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!loopback(redisUrl)) throw new Error('REDIS_URL must name a Redis on this machine');
const port = (name: string, fallback: number) => count(name, fallback, 1);
const stripeUrl = `http://127.0.0.1:${port('DEV_STRIPE_PORT', 4020)}`;
const mailboxUrl = `http://127.0.0.1:${port('DEV_MAILBOX_PORT', 4026)}`;

let cluster: ChildProcess | null = null;
let stateFile = env.SOAK_CLUSTER_STATE ?? '';

function stopCluster(): Promise<void> {
  const child = cluster;
  cluster = null;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => (child.kill('SIGKILL'), resolve()), 30_000).unref();
  });
}
process.on('exit', () => {
  restoreServices();
  cluster?.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    restoreServices();
    void stopCluster().then(() => process.exit(130));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** start:cluster in the background, its output in a log file; resolves once its one URL answers. */
async function startCluster(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'boatshop-soak-'));
  stateFile = join(workDir, 'cluster.json');
  const log = join(workDir, 'cluster.log');
  const out = openSync(log, 'a');
  console.log(`Starting the cluster (log: ${log})`);
  cluster = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-cluster.mjs'], {
    cwd: ROOT,
    env: { ...env, REDIS_URL: redisUrl, CLUSTER_STATE_FILE: stateFile, DEV_MAILBOX_CAPACITY: env.DEV_MAILBOX_CAPACITY ?? '100000' },
    stdio: ['ignore', out, out],
  });
  const deadline = Date.now() + 400_000;
  while (Date.now() < deadline) {
    if (cluster.exitCode !== null) throw new Error(`start:cluster stopped (exit ${cluster.exitCode}); see ${log}`);
    // start:cluster marks its state ready once every replica answered and nginx serves the shop.
    if (existsSync(stateFile) && readState(stateFile).ready) return;
    await sleep(1000);
  }
  throw new Error(`the cluster did not come up within 400 s; see ${log}`);
}

/** The catalogue the users buy from, and the run's own one-off boats (stock 1) to race for. */
async function prepare(world: SoakWorld, admin: SoakClient): Promise<void> {
  // The whole catalogue, page by page: earlier runs' one-off boats come first (newest first).
  const catalogue: (Product & { stock: number | null })[] = [];
  for (let cursor: string | null = null, pages = 0; pages < 50; pages++) {
    const page: { body: { data: (Product & { stock: number | null })[]; cursor: string | null; isLastPage: boolean } } = await admin.call({
      route: 'GET /api/products',
      path: `/api/products?limit=48${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    });
    catalogue.push(...page.body.data);
    if (page.body.isLastPage || !page.body.cursor) break;
    cursor = page.body.cursor;
  }
  const builtToOrder = catalogue.filter((p) => p.stock === null || p.stock === undefined);
  world.cardBoats = builtToOrder.filter((p) => p.priceCents <= 90_000_000);
  for (const boat of builtToOrder.filter((p) => p.priceCents > 100_000_000 && p.priceCents <= 700_000_000)) {
    const quote = await admin.call<{ depositRequired: boolean }>({
      route: 'POST /api/payments/quote',
      path: '/api/payments/quote',
      // Quoted for the country the buyers ship to: a new boat sold across a border is paid net of VAT.
      body: { items: [{ productId: boat.id, quantity: 1 }], shippingCountry: ADDRESS.country },
      retry: true,
    });
    if (quote.body.depositRequired) world.depositBoats.push(boat);
  }
  const picture = catalogue[0]?.thumbnailUrl ?? '/api/images/boat-1.svg';
  for (let n = 1; n <= count('SOAK_ONE_OFFS', 40); n++) {
    const created = await admin.call<Product>({
      route: 'POST /api/admin/products',
      path: '/api/admin/products',
      body: {
        name: `Soak one-off ${world.runId} #${n}`,
        thumbnailUrl: picture,
        priceCents: 3_000_000 + n * 100,
        descriptionHtml: '<p>A one-off boat the soak test races for.</p>',
        category: 'sailing-boats',
        stock: 1,
      },
      expect: [201],
      retry: false,
    });
    world.oneOffs.push(created.body);
  }
  if (world.cardBoats.length === 0 || world.depositBoats.length === 0)
    throw new Error('the catalogue has no boats to buy (seed the demo data)');
}

async function main(): Promise<void> {
  if (faults.includes('postgres')) assertPgClusterIsTheDatabase();
  if (!stateFile) await startCluster();
  const state = readState(stateFile);
  if (!loopback(state.url)) throw new Error(`the soak drives loopback only, not ${state.url}`);
  const stats = new SoakStats();
  const runId = Date.now().toString(36);
  const world: SoakWorld = {
    baseUrl: state.url,
    stripeUrl,
    mailboxUrl,
    runId,
    stats,
    cardBoats: [],
    depositBoats: [],
    oneOffs: [],
    oneOffCursor: 0,
    paidIntents: new Map(),
    transfers: [],
    settled: new Set(),
    wonOneOffs: new Map(),
    stopAt: Number.POSITIVE_INFINITY,
    maxRequests,
    problems: [],
  };
  const since = new Date();
  const client = (n: number) => new SoakClient(state.url, `198.51.100.${n}`, stats);
  const admin = client(250);
  await admin.call({ route: 'GET /api/auth/session', path: '/api/auth/session' });
  await admin.call({
    route: 'POST /api/auth/login',
    path: '/api/auth/login',
    body: { email: 'admin@example.com', password: env.SOAK_ADMIN_PASSWORD ?? 'admin-ahoy-2024' },
    retry: true,
  });
  await prepare(world, admin);

  const startedAt = Date.now();
  world.stopAt = startedAt + seconds * 1000;
  console.log(`Soak ${runId}: ${seconds} s on ${state.url}, faults: ${faults.join(', ') || 'none'}`);
  const users: Promise<void>[] = [];
  let n = 1;
  const email = (kind: string, i: number) => `soak-${runId}-${kind}${i}@example.com`;
  for (let i = 0; i < count('SOAK_VISITORS', 3); i++) users.push(visitor(client(n++), world));
  for (let i = 0; i < count('SOAK_BUYERS', 2); i++) users.push(buyer(client(n++), world, email('card', i), 'card'));
  for (let i = 0; i < count('SOAK_RACERS', 2); i++) users.push(buyer(client(n++), world, email('race', i), 'race'));
  for (let i = 0; i < count('SOAK_DEPOSITORS', 1); i++) users.push(buyer(client(n++), world, email('deposit', i), 'deposit'));
  users.push(
    accountant(client(n++), world, env.SOAK_ACCOUNTANT ?? 'accountant@example.com', env.SOAK_ACCOUNTANT_PASSWORD ?? 'ledger-ahoy-2024'),
  );

  const faultLog: FaultRecord[] = [];
  const report = (record: FaultRecord) => {
    faultLog.push(record);
    const back = record.downMs === null ? 'never' : `${(record.downMs / 1000).toFixed(1)} s`;
    console.log(`  ${new Date(record.at).toISOString().slice(11, 19)} ${record.kind} fault on ${record.target}: back after ${back}`);
  };
  const at = async (second: number) => {
    await sleep(startedAt + second * 1000 - Date.now());
    return running(world);
  };
  const apis = Object.keys(state.processes).filter((name) => name.startsWith('api-'));
  const chains: Promise<void>[] = [];
  // One API replica at a time, every apiKillEvery seconds, the next only once the last one is back.
  if (faults.includes('api'))
    chains.push(
      (async () => {
        for (let t = apiKillEvery, i = 0; t < seconds - 10 && (await at(t)); t += apiKillEvery, i++) {
          report(await killReplica(stateFile, apis[i % apis.length]!));
        }
      })(),
    );
  const once = async (second: number, run: () => Promise<FaultRecord>) => {
    if (await at(second)) report(await run());
  };
  if (faults.includes('shell')) chains.push(once(Math.round(seconds * 0.3), () => killReplica(stateFile, 'shell-1')));
  if (faults.includes('redis')) chains.push(once(Math.round(seconds * 0.45), () => restartRedis(2000)));
  if (faults.includes('postgres')) chains.push(once(Math.round(seconds * 0.75), restartPostgres));
  const faultsDone = Promise.all(chains);
  const ticker = setInterval(() => {
    const outcomes = stats.byOutcome();
    console.log(
      `  ${Math.round((Date.now() - startedAt) / 1000)} s: ${stats.attempts.length} attempts, ${outcomes['clean-5xx']} clean 5xx, ${outcomes['other-5xx'] + outcomes['unexpected-4xx'] + outcomes.network} other failures`,
    );
  }, 30_000);
  await Promise.all(users);
  await faultsDone;
  clearInterval(ticker);
  const loadSeconds = (Date.now() - startedAt) / 1000;
  const load = loadavg();

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let checks: BookCheck[] = [];
  try {
    const pattern = `soak-${runId}-%`;
    const apiKills = faultLog.filter((fault) => fault.kind === 'api').map((fault) => fault.at);
    // A check that cannot run (a stand-in gone) fails with its reason; the others still report.
    const attempt = async (name: string, run: () => Promise<BookCheck[]>): Promise<BookCheck[]> =>
      run().catch((error: unknown) => [
        { name, ok: false, detail: `could not be checked: ${error instanceof Error ? error.message : String(error)}` },
      ]);
    checks = [
      ...(await attempt('payments', () => checkPayments(db, world, pattern))),
      ...(await attempt('stock', () => checkStock(db, world))),
      ...(await attempt('e-mails', () => checkMails(db, world, pattern, apiKills))),
      ...(await attempt('jobs', () => checkJobs(db, since))),
    ];
  } finally {
    await db.end();
  }
  const ok = printReport({ stats, world, checks, faults: faultLog, plannedKinds: faults, loadSeconds, load });
  await stopCluster();
  process.exit(ok ? 0 : 1);
}

main().catch(async (error: unknown) => {
  console.error(`npm run soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  restoreServices();
  await stopCluster();
  process.exit(1);
});
