// npm run bench -w api: requests/s and latency of the API on PostgreSQL and on PGlite, each
// against a bare route of the same app, measured with autocannon over loopback in one run.
// Each database twice: as configured by default (the catalogue read cache on) and with
// CATALOG_CACHE_TTL_MS=0, so the database path itself (keyset paging) is still measured.
// PostgreSQL: BENCH_DATABASE_URL (default database boatshop_bench on 127.0.0.1, created if missing).
// BENCH_SMOKE=1: one second per scenario, PostgreSQL as production runs it, the same table, no targets:
// proves the bench runs (api/test/bench/smoke.test.ts), measures nothing worth quoting.
// Then the faceted search on a 500,000-boat catalogue (bench/search-bench.ts; smoke: 2,000 boats).
// BENCH_ONLY=search or BENCH_ONLY=list runs one of the two.
import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, PRODUCTION_SETTINGS, startServer, stopServer } from './bench-server.js';
import { benchSearch } from './search-bench.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const DURATION_SECONDS = SMOKE ? 1 : 5;
const CONNECTIONS = 20;
const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/boatshop_bench';
interface Row {
  database: string;
  scenario: string;
  requestsPerSecond: number;
  /** answers of every status */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
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
        requests: sum((slice) => slice.requests),
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
const only = process.env.BENCH_ONLY;
if (only !== 'search') await benchList();
if (only !== 'list') {
  const searchRows = await benchSearch(SMOKE, PRODUCTION_SETTINGS);
  if (searchRows.some((row) => row.errors > 0)) process.exitCode = 1;
}

async function benchList(): Promise<void> {
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
    // The smoke run checks that the bench still runs, on a machine busy with the rest of the
    // suite: a route that fails half its answers or more fails it; a few refused under that load
    // (the pool's 503 when too many wait) do not. The errors column shows them either way.
    if (SMOKE) {
      if (rows.some((row) => row.requests === 0 || row.errors * 2 >= row.requests)) process.exitCode = 1;
    } else checkTargets(rows);
  } finally {
    fs.rmSync(pgliteDir, { recursive: true, force: true });
  }
}
