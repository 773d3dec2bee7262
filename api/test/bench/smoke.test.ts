import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SEARCH_SCENARIOS } from '../../bench/search-bench.js';

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
const TSX_CLI = fileURLToPath(import.meta.resolve('tsx/cli'));

/** A database of its own beside the test database: the bench replaces the catalogue it finds. */
function benchDatabaseUrl(testUrl: string, suffix: string): string {
  const url = new URL(testUrl);
  url.pathname = `${decodeURIComponent(url.pathname.slice(1)).replace(/_w\d+$/, '')}_${suffix}`;
  return url.toString();
}

// `npm run bench:api` in its one-second smoke mode: a bench that no longer starts (a new
// production refusal, a renamed route) fails here instead of on the day someone measures.
describe.skipIf(!process.env.DATABASE_URL)('npm run bench:api (smoke mode)', () => {
  it('starts the API as production runs it and prints every table, each scenario answered', { timeout: 240_000 }, async () => {
    const run = promisify(execFile)(process.execPath, [TSX_CLI, 'bench/run.ts'], {
      cwd: API_DIR,
      env: {
        ...process.env,
        BENCH_SMOKE: '1',
        BENCH_DATABASE_URL: benchDatabaseUrl(process.env.DATABASE_URL!, 'bench_smoke'),
        BENCH_SEARCH_DATABASE_URL: benchDatabaseUrl(process.env.DATABASE_URL!, 'search_bench_smoke'),
      },
      maxBuffer: 10 * 1024 * 1024,
    });
    // A failed run shows its tables (stdout) too, not only the error and stderr.
    const { stdout } = await run.catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`${error.message}\n--- stdout\n${error.stdout ?? ''}`);
    });
    // Every scenario measured (a few answers refused under the suite's load are allowed: the
    // run's exit code fails when half or more were).
    for (const scenario of ['bare route', 'products page 1', 'products page 500', 'one product']) {
      expect(stdout).toMatch(new RegExp(`\\| PostgreSQL +\\| ${scenario} +\\| \\d+ +\\|.*\\| \\d+ +\\|`));
    }
    // The search at scale, on its small smoke catalogue: every query answered, p50/p95/p99 printed.
    for (const { name } of SEARCH_SCENARIOS) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(stdout).toMatch(new RegExp(`\\| cells +\\| ${escaped} +\\| [\\d.]+ +\\| [\\d.]+ +\\| [\\d.]+ +\\|.*\\| 0 +\\|`));
    }
  });
});
