import type { RateLimitOptions } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError } from '../../lib/errors.js';
import type { AuthAction } from './auth-attempts.table.js';

/**
 * The per-IP limit of the sign-in, sign-up and reset routes (AUTH_RATE_LIMIT_PER_MINUTE; 0 turns
 * it off, e.g. for a load test from one machine). The per-account limits below apply regardless.
 */
export function perIpRateLimit(maxPerMinute: number): { rateLimit: RateLimitOptions | false } {
  return { rateLimit: maxPerMinute > 0 ? { max: maxPerMinute, timeWindow: '1 minute' } : false };
}

/** How many attempts one account may see per window, per action. */
export const ACCOUNT_LIMITS: Record<AuthAction, { max: number; windowMinutes: number; message: string }> = {
  // Counted on failures only: someone who knows the password is never locked out by it.
  login: {
    max: 5,
    windowMinutes: 15,
    message: 'Too many failed sign-in attempts for this account. Try again in 15 minutes or reset your password.',
  },
  register: {
    max: 10,
    windowMinutes: 15,
    message: 'Too many sign-up attempts for this e-mail. Try again in 15 minutes.',
  },
  // Each request sends an e-mail: a cap keeps the shop from being used to flood someone's inbox.
  'password-reset': {
    max: 3,
    windowMinutes: 15,
    message: 'Too many reset requests for this e-mail. Try again in 15 minutes.',
  },
};

/** Hashed so that the table keeps no addresses of people who never registered. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

function windowStart(action: AuthAction): Date {
  return new Date(Date.now() - ACCOUNT_LIMITS[action].windowMinutes * 60_000);
}

/**
 * Throws 429 RATE_LIMITED when the account has used up its attempts. Counted per e-mail whether
 * or not an account exists, so the answer tells nothing about who is registered.
 */
export async function assertAccountNotThrottled(db: Kysely<Database>, action: AuthAction, email: string): Promise<void> {
  const { count } = await db
    .selectFrom('auth_attempts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('action', '=', action)
    .where('account', '=', accountKey(email))
    .where('created_at', '>', windowStart(action))
    .executeTakeFirstOrThrow();
  if (Number(count) >= ACCOUNT_LIMITS[action].max) {
    throw new ApiError(429, 'RATE_LIMITED', ACCOUNT_LIMITS[action].message);
  }
}

export async function recordAttempt(db: Kysely<Database>, action: AuthAction, email: string): Promise<void> {
  await db.insertInto('auth_attempts').values({ action, account: accountKey(email) }).execute();
  // Rows past every window count for nothing; dropping them here keeps the table small without a job.
  const longestWindowMinutes = Math.max(...Object.values(ACCOUNT_LIMITS).map((limit) => limit.windowMinutes));
  await db
    .deleteFrom('auth_attempts')
    .where('created_at', '<', new Date(Date.now() - longestWindowMinutes * 60_000))
    .execute();
}

export async function clearAttempts(db: Kysely<Database>, action: AuthAction, email: string): Promise<void> {
  await db.deleteFrom('auth_attempts').where('action', '=', action).where('account', '=', accountKey(email)).execute();
}
