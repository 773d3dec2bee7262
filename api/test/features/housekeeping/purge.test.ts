import { describe, expect } from 'vitest';
import { purgeExpiredData } from '../../../src/features/housekeeping/purge.js';
import { insertUser } from '../../../src/features/users/users.repository.js';
import { it, type TestApp } from '../../support/fixtures.js';

// On PGlite, and on PostgreSQL when DATABASE_URL is set.
const NOW = new Date('2026-11-23T12:00:00.000Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('purgeExpiredData', () => {
  async function seed(app: TestApp) {
    const user = await insertUser(app.db, { email: 'keeper@example.test', display_name: 'Keeper', roles: ['user'], password_hash: null });
    const session = (name: string, values: { expires_at: Date; revoked_at?: Date | null }) =>
      app.db
        .insertInto('sessions')
        .values({ user_id: user.id, created_at: ago(20 * DAY), revoked_at: null, ...values })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => [name, row.id] as const);
    const sessions = Object.fromEntries(
      await Promise.all([
        session('live', { expires_at: later(DAY) }),
        session('expiredLongAgo', { expires_at: ago(8 * DAY) }),
        session('expiredYesterday', { expires_at: ago(DAY) }),
        session('revokedLongAgo', { expires_at: later(DAY), revoked_at: ago(10 * DAY) }),
        session('revokedRecently', { expires_at: later(DAY), revoked_at: ago(2 * DAY) }),
      ]),
    );
    const token = (hash: string, values: { expires_at: Date; used_at?: Date | null }) =>
      app.db
        .insertInto('password_reset_tokens')
        .values({ user_id: user.id, token_hash: hash, used_at: null, ...values })
        .execute();
    await token('live', { expires_at: later(30 * MINUTE) });
    await token('used', { expires_at: later(30 * MINUTE), used_at: ago(MINUTE) });
    await token('expired', { expires_at: ago(MINUTE) });
    const attempt = (account: string, createdAt: Date) =>
      app.db.insertInto('auth_attempts').values({ action: 'login', account, created_at: createdAt }).execute();
    await attempt('recent', ago(5 * MINUTE));
    await attempt('stale', ago(16 * MINUTE));
    const event = (id: string, receivedAt: Date) =>
      app.db
        .insertInto('payment_events')
        .values({ event_id: id, type: 'payment_intent.succeeded', payment_reference: null, received_at: receivedAt })
        .execute();
    await event('evt_recent', ago(29 * DAY));
    await event('evt_old', ago(31 * DAY));
    return { sessions };
  }

  it('deletes expired and revoked sessions past the grace, used or expired reset tokens, stale throttle rows and old webhook events', async ({
    app,
  }) => {
    const { sessions } = await seed(app);

    const result = await purgeExpiredData(app.db, { now: NOW });

    expect(result).toEqual({ sessions: 2, resetTokens: 2, authAttempts: 1, paymentEvents: 1 });
    const sessionIds = (await app.db.selectFrom('sessions').select('id').execute()).map((row) => row.id).sort();
    expect(sessionIds).toEqual([sessions.live, sessions.expiredYesterday, sessions.revokedRecently].sort());
    expect(await app.db.selectFrom('password_reset_tokens').select('token_hash').execute()).toEqual([{ token_hash: 'live' }]);
    expect(await app.db.selectFrom('auth_attempts').select('account').execute()).toEqual([{ account: 'recent' }]);
    expect(await app.db.selectFrom('payment_events').select('event_id').execute()).toEqual([{ event_id: 'evt_recent' }]);
  });

  it('finds nothing more to delete when run again', async ({ app }) => {
    await seed(app);
    await purgeExpiredData(app.db, { now: NOW });
    expect(await purgeExpiredData(app.db, { now: NOW })).toEqual({ sessions: 0, resetTokens: 0, authAttempts: 0, paymentEvents: 0 });
  });

  it('keeps rows for as long as it is told to', async ({ app }) => {
    await seed(app);
    const result = await purgeExpiredData(app.db, { now: NOW, sessionGraceDays: 0, paymentEventRetentionDays: 60 });
    expect(result).toEqual({ sessions: 4, resetTokens: 2, authAttempts: 1, paymentEvents: 0 });
  });
});
