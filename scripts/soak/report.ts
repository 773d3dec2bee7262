// The soak's printed figures and its verdict.
import type { BookCheck } from './books.js';
import type { FaultKind, FaultRecord } from './faults.js';
import { formatTable, type SoakStats } from './stats.js';
import type { SoakWorld } from './users.js';

/** At most this share of requests may fail after the client's retries (those caught on a dying replica). */
export const MAX_FAILED_SHARE = 0.005;

export interface Verdict {
  failedShare: number;
  checks: BookCheck[];
}

/** The checks on what the users saw: few failures, and every failed attempt a clean 502/503/504. */
export function trafficChecks(stats: SoakStats, world: SoakWorld, faults: FaultRecord[], plannedKinds: readonly FaultKind[]): BookCheck[] {
  const outcomes = stats.byOutcome();
  const failedShare = stats.requests === 0 ? 1 : stats.failedRequestCount() / stats.requests;
  const dirty = outcomes['other-5xx'] + outcomes['unexpected-4xx'];
  const missing = plannedKinds.filter((kind) => !faults.some((fault) => fault.kind === kind));
  return [
    {
      name: `failed requests ≤ ${MAX_FAILED_SHARE * 100} %`,
      ok: failedShare <= MAX_FAILED_SHARE,
      detail: `${stats.failedRequestCount()} of ${stats.requests} requests failed after retries (${(failedShare * 100).toFixed(3)} %)`,
    },
    {
      name: 'every failed attempt a clean 502/503/504 or a cut connection',
      ok: dirty === 0,
      detail: `${outcomes['clean-5xx']} clean 5xx, ${outcomes.network} cut connections, ${outcomes['other-5xx']} other 5xx, ${outcomes['unexpected-4xx']} unexpected 4xx`,
    },
    {
      name: 'every kind of fault injected, and each recovered',
      ok: missing.length === 0 && faults.every((fault) => fault.downMs !== null),
      detail: `${faults.length} faults${missing.length ? `, none of ${missing.join(', ')}` : ''}, ${faults.filter((f) => f.downMs === null).length} never recovered`,
    },
    {
      name: 'no user saw something impossible',
      ok: world.problems.length === 0,
      detail: world.problems.length === 0 ? 'none' : world.problems.slice(0, 5).join('; '),
    },
  ];
}

export function printReport(options: {
  stats: SoakStats;
  world: SoakWorld;
  checks: BookCheck[];
  faults: FaultRecord[];
  plannedKinds: readonly FaultKind[];
  loadSeconds: number;
  load: number[];
}): boolean {
  const { stats, world, faults, loadSeconds, load } = options;
  const outcomes = stats.byOutcome();
  const rows: (string | number)[][] = [['route', 'attempts', 'failed', 'p50 ms', 'p99 ms']];
  for (const route of stats.routes()) rows.push([route.route, route.attempts, route.failed, Math.round(route.p50), Math.round(route.p99)]);
  console.log(`
Soak ${world.runId}: ${loadSeconds.toFixed(0)} s, ${stats.requests} requests (${stats.attempts.length} attempts, ${(stats.attempts.length / loadSeconds).toFixed(1)}/s)
load average at the end: ${load.map((l) => l.toFixed(2)).join(' ')}
attempts by outcome: ${Object.entries(outcomes)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ')}
orders: ${world.paidIntents.size} card payments, ${world.settled.size} balances recorded by bank transfer, ${world.wonOneOffs.size} of ${world.oneOffs.length} one-off boats won
faults: ${faults.map((f) => `${f.target} ${f.downMs === null ? 'not back' : `${(f.downMs / 1000).toFixed(1)} s`}`).join(', ') || 'none'}

${formatTable(rows)}
`);
  const unexpected = [...stats.unexpected()];
  if (unexpected.length > 0) console.log(`Failed attempts:\n${unexpected.map(([key, n]) => `  ${n} × ${key}`).join('\n')}\n`);
  for (const [key, body] of stats.samples) console.log(`Answer of ${key}: ${body}`);
  const checks = [...trafficChecks(stats, world, faults, options.plannedKinds), ...options.checks];
  for (const check of checks) console.log(`${check.ok ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
  const ok = checks.every((check) => check.ok);
  console.log(ok ? '\nThe soak passed.' : '\nThe soak FAILED.');
  return ok;
}
