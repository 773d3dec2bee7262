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

export function inCanary(seed: string | null | undefined, remote: string, canary: { release: string; share: number } | null | undefined): boolean {
  if (!canary || !seed || canary.share <= 0) return false;
  return canaryBucket(seed, remote, canary.release) < canary.share;
}
