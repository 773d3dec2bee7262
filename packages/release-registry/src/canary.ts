import { createHash, randomBytes } from 'node:crypto';

/** The cookie holding a visitor's random canary seed: no personal data, only for bucketing. */
export const CANARY_COOKIE = 'boatshop_canary';

export function newVisitorSeed(): string {
  return randomBytes(12).toString('base64url');
}

export function isVisitorSeed(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(value);
}

/**
 * Where a visitor falls for one canary, in [0, 100): a hash of their seed, the remote and the
 * canary's release. The same visitor lands in the same place for as long as the canary lasts
 * (sticky), raising the share only adds visitors, and a new canary draws a new sample.
 */
export function canaryBucket(seed: string, remote: string, release: string): number {
  const digest = createHash('sha256').update(`${seed}\0${remote}\0${release}`).digest();
  return (digest.readUInt32BE(0) / 0x1_0000_0000) * 100;
}

export function inCanary(
  seed: string | null | undefined,
  remote: string,
  canary: { release: string; share: number } | null | undefined,
): boolean {
  if (!canary || !seed || canary.share <= 0) return false;
  return canaryBucket(seed, remote, canary.release) < canary.share;
}

export interface Tally {
  /** Page loads that rendered a page of this remote with this release. */
  served: number;
  /** Failures the shell reported: the remote did not load, or its error boundary caught an error. */
  failures: number;
}

/** The least evidence before a canary is judged: a handful of failures among enough loads. */
export const VERDICT_MIN_FAILURES = 5;
export const VERDICT_MIN_SERVED = 20;

/**
 * Why a canary should be taken out of rotation, or null: its failure rate is clearly above the
 * live release's (at least VERDICT_MIN_FAILURES failures among VERDICT_MIN_SERVED loads, at
 * least 5 %, and more than twice the live rate plus one point), so a single unlucky visitor or a
 * shop-wide outage (both sides failing alike) does not withdraw it.
 */
export function canaryVerdict(canary: Tally, live: Tally): string | null {
  if (canary.failures < VERDICT_MIN_FAILURES || canary.served < VERDICT_MIN_SERVED) return null;
  const rate = (t: Tally) => (t.served === 0 ? 0 : Math.min(1, t.failures / t.served));
  const canaryRate = rate(canary);
  const liveRate = rate(live);
  if (canaryRate < 0.05 || canaryRate <= 2 * liveRate + 0.01) return null;
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  return `failure rate ${pct(canaryRate)} (${canary.failures} of ${canary.served} loads) against ${pct(liveRate)} (${live.failures} of ${live.served}) for the live release`;
}
