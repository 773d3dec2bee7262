import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

const test = testWithApp({ config: { people: { salesRefundLimitCents: 1_000_000, stepUpAboveCents: 1000 } } });
const NO_ORDER = '00000000-0000-4000-8000-000000000000';
const PASSWORD = 'Correct-Horse-42';

/** An owner whose sign-in was ten minutes ago: no longer fresh. */
async function staleOwner(app: TestApp): Promise<UserWithSession> {
  const owner = await createUserWithSession(app, { roles: ['user', 'owner'], password: PASSWORD });
  // created_at is never updated by the app (its column type says so); the test ages it in SQL.
  await sql`update sessions set created_at = now() - interval '10 minutes' where id = ${owner.sessionId}`.execute(app.db);
  return owner;
}

const refund = (app: TestApp, who: UserWithSession, amountCents: number) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/orders/${NO_ORDER}/refund`,
    headers: who.headers,
    payload: { amountCents, idempotencyKey: `step-up-${amountCents}-${Math.random()}` },
  });

describe('step-up', () => {
  test('a refund above the amount asks for the password again; below it does not', async ({ app }) => {
    const owner = await staleOwner(app);
    const above = await refund(app, owner, 1001);
    expect(above.statusCode).toBe(403);
    expect(above.json().error.code).toBe('STEP_UP_REQUIRED');
    // Below the amount: past the check, the order does not exist.
    expect((await refund(app, owner, 1000)).statusCode).toBe(404);

    const wrong = await app.inject({ method: 'POST', url: '/api/auth/step-up', headers: owner.headers, payload: { password: 'not-it' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('WRONG_PASSWORD');
    expect((await refund(app, owner, 1001)).statusCode).toBe(403);

    const right = await app.inject({ method: 'POST', url: '/api/auth/step-up', headers: owner.headers, payload: { password: PASSWORD } });
    expect(right.statusCode, right.body).toBe(200);
    const until = new Date(right.json().freshUntil).getTime();
    expect(until - Date.now()).toBeGreaterThan(4 * 60 * 1000);
    expect(until - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
    expect((await refund(app, owner, 1001)).statusCode).toBe(404);
  });

  test('lasts five minutes', async ({ app }) => {
    const owner = await staleOwner(app);
    await app.inject({ method: 'POST', url: '/api/auth/step-up', headers: owner.headers, payload: { password: PASSWORD } });
    expect((await app.inject({ method: 'GET', url: '/api/auth/step-up', headers: owner.headers })).json().freshUntil).not.toBeNull();
    await app.db
      .updateTable('sessions')
      .set({ stepped_up_at: new Date(Date.now() - 5 * 60 * 1000 - 1000) })
      .where('id', '=', owner.sessionId)
      .execute();
    expect((await app.inject({ method: 'GET', url: '/api/auth/step-up', headers: owner.headers })).json().freshUntil).toBeNull();
    expect((await refund(app, owner, 5000)).json().error.code).toBe('STEP_UP_REQUIRED');
  });

  test('role changes, invitations and exports ask for it too; a fresh sign-in counts', async ({ app }) => {
    const owner = await staleOwner(app);
    const sam = await createUserWithSession(app, { roles: ['user', 'sales'] });
    const attempts = [
      app.inject({ method: 'PUT', url: `/api/admin/staff/${sam.user.id}/role`, headers: owner.headers, payload: { role: 'editor' } }),
      app.inject({ method: 'DELETE', url: `/api/admin/staff/${sam.user.id}`, headers: owner.headers }),
      app.inject({
        method: 'POST',
        url: '/api/admin/staff/invitations',
        headers: owner.headers,
        payload: { email: 'n@example.test', role: 'sales' },
      }),
      app.inject({ method: 'GET', url: '/api/admin/audit/export', headers: owner.headers }),
    ];
    for (const answer of await Promise.all(attempts)) expect(answer.json().error.code).toBe('STEP_UP_REQUIRED');
    expect((await app.db.selectFrom('users').select('roles').where('id', '=', sam.user.id).executeTakeFirstOrThrow()).roles).toEqual([
      'user',
      'sales',
    ]);

    const freshOwner = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const changed = await app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${sam.user.id}/role`,
      headers: freshOwner.headers,
      payload: { role: 'editor' },
    });
    expect(changed.statusCode).toBe(200);
  });
});
