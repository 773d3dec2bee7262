// What the soak's virtual users saw: every attempt of every request, by route, with its outcome.

/** How one attempt ended. `ok`: the status the step expected. */
export type Outcome =
  | 'ok'
  /** 502/503/504 from nginx or a replica going away: the client may retry */
  | 'clean-5xx'
  /** any other 5xx: a bug */
  | 'other-5xx'
  /** a 4xx the step did not expect */
  | 'unexpected-4xx'
  /** no HTTP answer at all (connection refused or reset, timeout) */
  | 'network';

export interface Attempt {
  route: string;
  status: number | null;
  outcome: Outcome;
  ms: number;
  at: number;
}

/** The value below which `p` (0–1) of the sorted values fall, by nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1]!;
}

export class SoakStats {
  readonly attempts: Attempt[] = [];
  /** requests that still failed after the client's retries, by route */
  readonly failedRequests = new Map<string, number>();
  requests = 0;
  /** the first answers of each unexpected kind, for the report */
  readonly samples = new Map<string, string>();

  record(attempt: Attempt, body = ''): void {
    this.attempts.push(attempt);
    const key = `${attempt.route} → ${attempt.status ?? 'no answer'}`;
    if ((attempt.outcome === 'unexpected-4xx' || attempt.outcome === 'other-5xx') && !this.samples.has(key))
      this.samples.set(key, body.slice(0, 300));
  }

  requestDone(route: string, ok: boolean): void {
    this.requests++;
    if (!ok) this.failedRequests.set(route, (this.failedRequests.get(route) ?? 0) + 1);
  }

  byOutcome(): Record<Outcome, number> {
    const counts: Record<Outcome, number> = { ok: 0, 'clean-5xx': 0, 'other-5xx': 0, 'unexpected-4xx': 0, network: 0 };
    for (const attempt of this.attempts) counts[attempt.outcome]++;
    return counts;
  }

  /** Per route: attempts, failed attempts, p50 and p99 of the answered ones (ms). */
  routes(): { route: string; attempts: number; failed: number; p50: number; p99: number }[] {
    const groups = new Map<string, Attempt[]>();
    for (const attempt of this.attempts) groups.set(attempt.route, [...(groups.get(attempt.route) ?? []), attempt]);
    return [...groups.entries()]
      .map(([route, list]) => {
        const times = list
          .filter((a) => a.status !== null)
          .map((a) => a.ms)
          .sort((a, b) => a - b);
        return {
          route,
          attempts: list.length,
          failed: list.filter((a) => a.outcome !== 'ok').length,
          p50: percentile(times, 0.5),
          p99: percentile(times, 0.99),
        };
      })
      .sort((a, b) => b.attempts - a.attempts);
  }

  failedRequestCount(): number {
    return [...this.failedRequests.values()].reduce((sum, n) => sum + n, 0);
  }

  /** Unexpected answers by route and status, for the report. */
  unexpected(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const a of this.attempts) {
      if (a.outcome === 'ok') continue;
      const key = `${a.route} → ${a.status ?? 'no answer'} (${a.outcome})`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }
}

export function formatTable(rows: (string | number)[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  return rows
    .map((row) =>
      row.map((cell, i) => (typeof cell === 'number' ? String(cell).padStart(widths[i]!) : String(cell).padEnd(widths[i]!))).join('  '),
    )
    .join('\n');
}
