import type { Tally } from './canary';

/** Page loads and failures per remote and release: `{ "mf-catalog": { "<release id>": { served, failures } } }`. */
export type Tallies = Record<string, Record<string, Tally>>;

/** What one shell replica wrote: its own counts since it started (cumulative, never reset). */
export interface CountsFile {
  schema: 1;
  replica: string;
  environment: string;
  updatedAt: string;
  tallies: Tallies;
}

/** Replica names become file names: a short slug. */
export const REPLICA_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 48;

/** The tallies of a counts file, or null when the file is not one (never half-used). */
export function parseCounts(value: unknown): Tallies | null {
  if (typeof value !== 'object' || value === null || (value as { schema?: unknown }).schema !== 1) return null;
  const tallies = (value as { tallies?: unknown }).tallies;
  if (typeof tallies !== 'object' || tallies === null || Array.isArray(tallies)) return null;
  const out: Tallies = {};
  for (const [remote, releases] of Object.entries(tallies)) {
    if (typeof releases !== 'object' || releases === null || Array.isArray(releases)) return null;
    for (const [release, tally] of Object.entries(releases as Record<string, unknown>)) {
      const t = tally as Partial<Tally> | null;
      if (!t || !isCount(t.served) || !isCount(t.failures)) return null;
      (out[remote] ??= {})[release] = { served: t.served, failures: t.failures };
    }
  }
  return out;
}

/** The sum of several replicas' counts. */
export function mergeTallies(...all: Tallies[]): Tallies {
  const sum: Tallies = {};
  for (const tallies of all) {
    for (const [remote, releases] of Object.entries(tallies)) {
      for (const [release, tally] of Object.entries(releases)) {
        const into = ((sum[remote] ??= {})[release] ??= { served: 0, failures: 0 });
        into.served += tally.served;
        into.failures += tally.failures;
      }
    }
  }
  return sum;
}

export function tallyOf(tallies: Tallies, remote: string, release: string): Tally {
  return tallies[remote]?.[release] ?? { served: 0, failures: 0 };
}

/** "loads 120, failures 3 (2.5%)" for `npm run releases`. */
export function describeTally(tally: Tally): string {
  const rate = tally.served === 0 ? '–' : `${((Math.min(tally.failures, tally.served) / tally.served) * 100).toFixed(1)}%`;
  return `loads ${tally.served}, failures ${tally.failures} (${rate})`;
}
