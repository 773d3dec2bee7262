import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { THROTTLE_LIMITS } from '../auth/throttle.js';

/**
 * Rows a long-running shop no longer needs. Not scheduled here: the job queue runs it hourly as
 * `housekeeping.purge` (see api/README.md). Each delete is one statement on its own, so a run
 * interrupted halfway (a restart, a statement timeout) loses nothing and the next run finishes.
 */
export interface PurgeOptions {
  /** the moment to purge as of (tests); now by default */
  now?: Date;
  /** expired or revoked sessions are kept this many days (support, audit), then deleted */
  sessionGraceDays?: number;
  /** handled webhook events are kept this many days, then deleted */
  paymentEventRetentionDays?: number;
}

export interface PurgeResult {
  sessions: number;
  resetTokens: number;
  authAttempts: number;
  paymentEvents: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_SESSION_GRACE_DAYS = 7;
/**
 * Providers retry a webhook for up to three days (Stripe); a month of event ids is ample for
 * replay detection, and the order's own status makes any later replay a no-op anyway.
 */
export const DEFAULT_PAYMENT_EVENT_RETENTION_DAYS = 30;

/** Throttle rows older than the longest window count towards no limit. */
export function longestThrottleWindowMs(): number {
  return (
    Math.max(
      ...Object.values(THROTTLE_LIMITS)
        .flat()
        .map((limit) => limit.windowMinutes),
    ) * 60_000
  );
}

function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

function count(result: { numDeletedRows: bigint }): number {
  return Number(result.numDeletedRows);
}

export async function purgeExpiredData(db: Kysely<Database>, options: PurgeOptions = {}): Promise<PurgeResult> {
  const now = options.now ?? new Date();
  const sessionsBefore = daysBefore(now, options.sessionGraceDays ?? DEFAULT_SESSION_GRACE_DAYS);
  const eventsBefore = daysBefore(now, options.paymentEventRetentionDays ?? DEFAULT_PAYMENT_EVENT_RETENTION_DAYS);

  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', sessionsBefore), eb('revoked_at', '<', sessionsBefore)]))
    .executeTakeFirstOrThrow();
  // A used or expired reset token can never open anything again: no reason to keep it.
  const resetTokens = await db
    .deleteFrom('password_reset_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
    .executeTakeFirstOrThrow();
  // The same for e-mail verification links (same shape as reset tokens).
  const verificationTokens = await db
    .deleteFrom('email_verification_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
    .executeTakeFirstOrThrow();
  const authAttempts = await db
    .deleteFrom('auth_attempts')
    .where('created_at', '<', new Date(now.getTime() - longestThrottleWindowMs()))
    .executeTakeFirstOrThrow();
  const paymentEvents = await db.deleteFrom('payment_events').where('received_at', '<', eventsBefore).executeTakeFirstOrThrow();

  return {
    sessions: count(sessions),
    resetTokens: count(resetTokens) + count(verificationTokens),
    authAttempts: count(authAttempts),
    paymentEvents: count(paymentEvents),
  };
}
