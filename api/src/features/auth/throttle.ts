import type { RateLimitOptions } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError } from '../../lib/errors.js';
import type { AuthAction } from './auth-attempts.table.js';

/**
 * The per-IP limit of the sign-in, sign-up and reset routes (AUTH_RATE_LIMIT_PER_MINUTE; 0 turns
 * it off, e.g. for a load test from one machine). The limits below apply regardless.
 */
export function perIpRateLimit(maxPerMinute: number): { rateLimit: RateLimitOptions | false } {
  return { rateLimit: maxPerMinute > 0 ? { max: maxPerMinute, timeWindow: '1 minute' } : false };
}

/**
 * What one limit counts: attempts naming one account from one client address, from one address
 * whatever the account, or naming one account from anywhere.
 */
export type ThrottleScope = 'account-and-address' | 'address' | 'account';

export interface ThrottleLimit {
  scope: ThrottleScope;
  max: number;
  windowMinutes: number;
  message: string;
}

export const WINDOW_MINUTES = 15;

/** The limits of each action, all over the same 15-minute sliding window. */
export const THROTTLE_LIMITS: Record<AuthAction, ThrottleLimit[]> = {
  // Counted per (account, address), not per account: a stranger's guesses from their own address
  // must not lock the owner out of every other one. Successes are taken back, so someone who
  // knows the password is never locked out by it.
  login: [
    {
      scope: 'account-and-address',
      max: 5,
      windowMinutes: WINDOW_MINUTES,
      message: 'Too many failed sign-in attempts for this account. Try again in 15 minutes or reset your password.',
    },
    // Guessing at many accounts from one address (password spraying).
    {
      scope: 'address',
      max: 20,
      windowMinutes: WINDOW_MINUTES,
      message: 'Too many failed sign-in attempts from your network. Try again in 15 minutes.',
    },
  ],
  register: [
    {
      scope: 'account',
      max: 10,
      windowMinutes: WINDOW_MINUTES,
      message: 'Too many sign-up attempts for this e-mail. Try again in 15 minutes.',
    },
  ],
  // Each request sends an e-mail: a cap keeps the shop from being used to flood someone's inbox.
  'password-reset': [
    {
      scope: 'account',
      max: 3,
      windowMinutes: WINDOW_MINUTES,
      message: 'Too many reset requests for this e-mail. Try again in 15 minutes.',
    },
  ],
  'verify-email': [
    {
      scope: 'account',
      max: 3,
      windowMinutes: WINDOW_MINUTES,
      message: 'We have sent several verification e-mails already. Try again in 15 minutes.',
    },
  ],
};

/** Who an attempt names and where it comes from (request.ip, which honours TRUST_PROXY only). */
export interface AttemptSource {
  email: string;
  clientAddress: string;
}

/** Hashed so that the table keeps no addresses of people who never registered. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Lets the attempt through and counts it, or throws 429 RATE_LIMITED. The count and the insert
 * run in one transaction that first takes a transaction-scoped advisory lock on each key it
 * counts (always in the same order, so two attempts cannot deadlock), so attempts on one key
 * queue up: of thirty parallel guesses exactly the limit are let through, on every replica, since
 * the rows and the locks are in the database they share. A refused attempt leaves no row, so
 * hammering on a locked account does not push the lock further out. Counted per e-mail whether
 * or not an account exists, so the answer tells nothing about who is registered.
 */
export async function countAttempt(db: Kysely<Database>, action: AuthAction, source: AttemptSource): Promise<void> {
  const account = accountKey(source.email);
  const limits = THROTTLE_LIMITS[action];
  const lockKeys = [...new Set(limits.map((limit) => scopeKey(action, limit.scope, account, source.clientAddress)))].sort();

  await db.transaction().execute(async (trx) => {
    for (const key of lockKeys) await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);

    for (const limit of limits) {
      let query = trx
        .selectFrom('auth_attempts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('action', '=', action)
        .where('created_at', '>', new Date(Date.now() - limit.windowMinutes * 60_000));
      if (limit.scope !== 'address') query = query.where('account', '=', account);
      if (limit.scope !== 'account') query = query.where('client_address', '=', source.clientAddress);
      const { count } = await query.executeTakeFirstOrThrow();
      if (Number(count) >= limit.max) throw new ApiError(429, 'RATE_LIMITED', limit.message);
    }
    await trx.insertInto('auth_attempts').values({ action, account, client_address: source.clientAddress }).execute();
  });

  // Rows past every window count for nothing; dropping them here keeps the table small without a job.
  await db
    .deleteFrom('auth_attempts')
    .where('created_at', '<', new Date(Date.now() - WINDOW_MINUTES * 60_000))
    .execute();
}

function scopeKey(action: AuthAction, scope: ThrottleScope, account: string, clientAddress: string): string {
  if (scope === 'account') return `auth:${action}:${account}`;
  if (scope === 'address') return `auth:${action}::${clientAddress}`;
  return `auth:${action}:${account}:${clientAddress}`;
}

/**
 * Forgets an action's attempts for an account: from one address (a successful sign-in there),
 * or from everywhere (a new password makes every earlier guess moot).
 */
export async function clearAttempts(db: Db, action: AuthAction, email: string, clientAddress?: string): Promise<void> {
  let query = db.deleteFrom('auth_attempts').where('action', '=', action).where('account', '=', accountKey(email));
  if (clientAddress !== undefined) query = query.where('client_address', '=', clientAddress);
  await query.execute();
}
