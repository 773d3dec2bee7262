// The faceted search at scale: GET /api/products/search (first page, every facet's counts) on a
// catalogue of BENCH_SEARCH_BOATS boats (default 500,000; bench/search-seed.ts) on PostgreSQL,
// in a database of its own (BENCH_SEARCH_DATABASE_URL, default boatshop_search_bench, created and
// seeded once, kept for the next run). One request at a time, the queries in turns, the
// catalogue cache off (CATALOG_CACHE_TTL_MS=0): the latency of the database path a visitor meets
// after each product change. Measured twice in the same run: counts from the facet-cell table
// (as production runs) and computed from products (SEARCH_FACET_CELLS=false), docs/adr/0048.
import { ensureDatabase, startServer, stopServer } from './bench-server.js';

export interface SearchScenario {
  name: string;
  query: string;
  /** p95 target in milliseconds, where the issue sets one */
  targetP95?: number;
}

export const SEARCH_SCENARIOS: SearchScenario[] = [
  { name: 'all boats, newest', query: '', targetP95: 50 },
  { name: 'yachts, newest', query: 'category=yachts', targetP95: 50 },
  { name: 'two builders, a country, hide sold', query: 'builder=Bavaria,Beneteau&country=HR&hideSold=true', targetP95: 20 },
  { name: 'builder + length + year', query: 'builder=Princess&lengthMin=15&lengthMax=25&yearMin=2018', targetP95: 20 },
  { name: 'yachts 15–25 m from 2018', query: 'category=yachts&lengthMin=15&lengthMax=25&yearMin=2018', targetP95: 20 },
  { name: 'VAT paid, price range, by price', query: 'vatPaid=true&priceMin=10000000&priceMax=30000000&sort=price-asc' },
  { name: 'text "teak deck"', query: 'q=teak%20deck' },
];

export interface SearchRow {
  counts: string;
  scenario: SearchScenario;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measureSearch(counts: string, env: NodeJS.ProcessEnv, url: string, boats: number, rounds: number): Promise<SearchRow[]> {
  const { child, ready } = await startServer({ ...env, DATABASE_URL: url, BENCH_SEARCH_BOATS: String(boats), CATALOG_CACHE_TTL_MS: '0' });
  try {
    const base = `http://127.0.0.1:${ready.port}/api/products/search?`;
    const timings = new Map(SEARCH_SCENARIOS.map((scenario) => [scenario, [] as number[]]));
    const errors = new Map(SEARCH_SCENARIOS.map((scenario) => [scenario, 0]));
    const warmUp = Math.min(5, rounds);
    // In turns, one request at a time: load from elsewhere on the shared machine falls on every query alike.
    for (let round = 0; round < rounds + warmUp; round += 1) {
      for (const scenario of SEARCH_SCENARIOS) {
        const started = performance.now();
        const response = await fetch(`${base}${scenario.query}`);
        await response.arrayBuffer();
        const elapsed = performance.now() - started;
        if (!response.ok) errors.set(scenario, errors.get(scenario)! + 1);
        if (round >= warmUp) timings.get(scenario)!.push(elapsed);
      }
    }
    process.stderr.write(`  search, counts ${counts}: done\n`);
    return SEARCH_SCENARIOS.map((scenario) => {
      const sorted = timings.get(scenario)!.sort((a, b) => a - b);
      return {
        counts,
        scenario,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        errors: errors.get(scenario)!,
      };
    });
  } finally {
    await stopServer(child);
  }
}

export function printSearchTable(rows: SearchRow[], boats: number): void {
  console.log(
    `\nGET /api/products/search, ${boats} boats on PostgreSQL, first page with every facet count, cache off, one request at a time:\n`,
  );
  const header = ['counts', 'query', 'p50 ms', 'p95 ms', 'p99 ms', 'p95 target', 'errors'];
  const lines = rows.map((row) => [
    row.counts,
    row.scenario.name,
    row.p50.toFixed(1),
    row.p95.toFixed(1),
    row.p99.toFixed(1),
    row.scenario.targetP95 === undefined ? '' : `≤ ${row.scenario.targetP95} ${row.p95 <= row.scenario.targetP95 ? 'met' : 'NOT met'}`,
    String(row.errors),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
}

/** The search bench: `smoke` seeds a small catalogue and measures a few rounds (proves it runs). */
export async function benchSearch(smoke: boolean, productionEnv: NodeJS.ProcessEnv): Promise<SearchRow[]> {
  const url = process.env.BENCH_SEARCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/boatshop_search_bench';
  const boats = smoke ? 2000 : Number(process.env.BENCH_SEARCH_BOATS ?? 500_000);
  const rounds = smoke ? 3 : Number(process.env.BENCH_SEARCH_ROUNDS ?? 100);
  await ensureDatabase(url);
  const rows = [...(await measureSearch('cells', productionEnv, url, boats, rounds))];
  if (!smoke) rows.push(...(await measureSearch('products', { ...productionEnv, SEARCH_FACET_CELLS: 'false' }, url, boats, rounds)));
  printSearchTable(rows, boats);
  return rows;
}
