// npm run bench -w api: requests/s and latency of the API on PostgreSQL and on PGlite, each
// against a bare route of the same app, measured with autocannon over loopback in one run.
// Each database twice: as configured by default (the catalogue read cache on) and with
// CATALOG_CACHE_TTL_MS=0, so the database path itself (keyset paging) is still measured.
// PostgreSQL: BENCH_DATABASE_URL (default database boatshop_bench on 127.0.0.1, created if missing).
// BENCH_SMOKE=1: one second per scenario, PostgreSQL as production runs it, the same table, no targets:
// proves the bench runs (api/test/bench/smoke.test.ts), measures nothing worth quoting.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import getPort from 'get-port';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const SMOKE = process.env.BENCH_SMOKE === '1';
const DURATION_SECONDS = SMOKE ? 1 : 5;
const CONNECTIONS = 20;
const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/boatshop_bench';
const TSX_CLI = fileURLToPath(import.meta.resolve('tsx/cli'));
const SERVER = path.join(import.meta.dirname, 'server.ts');

interface Ready {
  port: number;
  deepCursor: string;
  productId: string;
}

interface Row {
  database: string;
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * What a production start requires (it refuses development defaults), with values for a bench:
 * the measured routes read the catalogue and call no payment or bank service. Production needs
 * PostgreSQL, so the PGlite runs start as development (LOG_LEVEL=warn all the same).
 */
const PRODUCTION_SETTINGS: NodeJS.ProcessEnv = {
  JWT_SECRET: randomBytes(48).toString('base64'),
  PUBLIC_URL: 'https://bench.invalid',
  STRIPE_SECRET_KEY: 'sk_test_bench',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_bench',
  STRIPE_WEBHOOK_SECRET: 'whsec_bench',
  BANK_ACCOUNT_HOLDER: 'Boat shop bench',
  BANK_IBAN: 'GB82WEST12345698765432',
  BANK_BIC: 'NWBKGB2L',
  SELLER_NAME: 'Boat shop bench GmbH',
  SELLER_ADDRESS: 'Kai 1; 20457 Hamburg',
  SELLER_COUNTRY: 'DE',
  SELLER_VAT_ID: 'DE811569869',
  SELLER_TAX_NUMBER: '22/815/08154',
  // find: the bench uploads nothing, so the bucket is never asked
  S3_BUCKET: 'bench-pictures',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'bench',
  S3_SECRET_ACCESS_KEY: 'bench-secret',
};

async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; ready: Ready }> {
  const port = await getPort();
  const child = spawn(process.execPath, [TSX_CLI, SERVER], {
    env: {
      ...process.env,
      ...(env.DATABASE_URL ? { ...PRODUCTION_SETTINGS, NODE_ENV: 'production' } : { NODE_ENV: 'development' }),
      ...env,
      API_PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((candidate) => candidate.startsWith('BENCH_READY '));
      if (line) resolve(JSON.parse(line.slice('BENCH_READY '.length)) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with code ${code} before it was ready`)));
  });
  return { child, ready };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(url: string, duration: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function benchDatabase(label: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
  const { child, ready } = await startServer(env);
  try {
    const base = `http://127.0.0.1:${ready.port}`;
    const scenarios: [string, string][] = [
      ['bare route', `${base}/bench/bare`],
      ['products page 1', `${base}/api/products`],
      ['products page 500', `${base}/api/products?cursor=${encodeURIComponent(ready.deepCursor)}`],
      ['one product', `${base}/api/products/${ready.productId}`],
    ];
    // Warm-up (JIT, pool connections, caches), not reported.
    if (!SMOKE) for (const [, url] of scenarios) await measure(url, 1);
    // One-second slices taken in turns: the machine is shared, and load from elsewhere then
    // falls on every scenario alike instead of skewing whichever happened to run at the time.
    const slices = new Map(scenarios.map(([scenario]) => [scenario, [] as Awaited<ReturnType<typeof measure>>[]]));
    for (let round = 0; round < DURATION_SECONDS; round += 1) {
      for (const [scenario, url] of scenarios) slices.get(scenario)!.push(await measure(url, 1));
    }
    process.stderr.write(`  ${label}: done\n`);
    return scenarios.map(([scenario]) => {
      const measured = slices.get(scenario)!;
      const sum = (pick: (slice: (typeof measured)[number]) => number) => measured.reduce((total, slice) => total + pick(slice), 0);
      return {
        database: label,
        scenario,
        requestsPerSecond: sum((slice) => slice.requests) / sum((slice) => slice.seconds),
        p50: median(measured.map((slice) => slice.p50)),
        p99: median(measured.map((slice) => slice.p99)),
        errors: sum((slice) => slice.errors),
      };
    });
  } finally {
    await stopServer(child);
  }
}

function printTable(rows: Row[]): void {
  const header = ['database', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'errors'];
  const lines = rows.map((row) => {
    const bare = rows.find((other) => other.database === row.database && other.scenario === 'bare route')!;
    return [
      row.database,
      row.scenario,
      row.requestsPerSecond.toFixed(0),
      String(row.p50),
      String(row.p99),
      `${((row.requestsPerSecond / bare.requestsPerSecond) * 100).toFixed(1)}%`,
      String(row.errors),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
}

const POSTGRES = 'PostgreSQL';
const POSTGRES_UNCACHED = 'PostgreSQL, no cache';
const PGLITE = 'PGlite';
const PGLITE_UNCACHED = 'PGlite, no cache';
// '' is the default (the cache on), whatever the calling shell has set.
const DEFAULT_CACHE = { CATALOG_CACHE_TTL_MS: '' };
const NO_CACHE = { CATALOG_CACHE_TTL_MS: '0' };

function checkTargets(rows: Row[]): void {
  const find = (database: string, scenario: string) => rows.find((row) => row.database === database && row.scenario === scenario)!;
  // Page 1 as shoppers get it, i.e. with the default configuration (the cache on).
  const bare = find(POSTGRES, 'bare route');
  const first = find(POSTGRES, 'products page 1');
  const firstRatio = first.requestsPerSecond / bare.requestsPerSecond;
  // Deep paging is the database's work: compare pages 1 and 500 with the cache off, where both
  // are real queries (with the cache on both would be memory lookups and prove nothing).
  const firstUncached = find(POSTGRES_UNCACHED, 'products page 1');
  const deepUncached = find(POSTGRES_UNCACHED, 'products page 500');
  const deepRatio = deepUncached.requestsPerSecond / firstUncached.requestsPerSecond;
  console.log(
    `\nTarget: PostgreSQL page 1 ≥ 25% of the bare route: ${(firstRatio * 100).toFixed(1)}% ${firstRatio >= 0.25 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `Target: page 500 within 20% of page 1 (PostgreSQL, no cache): ${((deepRatio - 1) * 100).toFixed(1)}% ${Math.abs(deepRatio - 1) <= 0.2 ? 'met' : 'NOT met'}`,
  );
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  if (errors > 0) {
    console.log(`${errors} failed or non-2xx responses: the figures above are not trustworthy.`);
    process.exitCode = 1;
  }
}

console.log(
  `API bench: autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} × 1 s per scenario in turns (p50/p99: median of the slices), loopback, ${os.cpus().length} CPU(s) shared by server, database and load generator\n`,
);
await ensureDatabase(BENCH_DATABASE_URL);
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'boatshop-bench-pglite-'));
try {
  const rows = SMOKE
    ? await benchDatabase(POSTGRES, { DATABASE_URL: BENCH_DATABASE_URL, ...DEFAULT_CACHE })
    : [
        ...(await benchDatabase(POSTGRES, { DATABASE_URL: BENCH_DATABASE_URL, ...DEFAULT_CACHE })),
        ...(await benchDatabase(POSTGRES_UNCACHED, { DATABASE_URL: BENCH_DATABASE_URL, ...NO_CACHE })),
        ...(await benchDatabase(PGLITE, { DATABASE_URL: '', PGLITE_DIR: pgliteDir, ...DEFAULT_CACHE })),
        ...(await benchDatabase(PGLITE_UNCACHED, { DATABASE_URL: '', PGLITE_DIR: pgliteDir, ...NO_CACHE })),
      ];
  console.log('');
  printTable(rows);
  if (SMOKE) {
    if (rows.some((row) => row.errors > 0)) process.exitCode = 1;
  } else checkTargets(rows);
} finally {
  fs.rmSync(pgliteDir, { recursive: true, force: true });
}
