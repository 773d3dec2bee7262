import type { StaffList } from '@boatshop/contract';
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

const test = testWithApp({ config: { people: { salesRefundLimitCents: 100_000, stepUpAboveCents: 10_000_000 } } });

async function invitationToken(app: TestApp, email: string): Promise<string> {
  const rows = await app.db.selectFrom('outbox').select(['kind', 'payload']).where('kind', '=', 'mail').execute();
  const mail = rows.map((row) => row.payload as { to: string; text: string }).find((payload) => payload.to === email);
  if (!mail) throw new Error(`no invitation e-mail to ${email} in the outbox`);
  return new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
}

describe('staff management', () => {
  test('an owner invites by e-mail; the invited, signed in with that verified address, takes the role once', async ({ app, admin }) => {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/admin/staff/invitations',
      headers: admin.headers,
      payload: { email: 'Eve.Editor@example.test', role: 'editor' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ email: 'Eve.Editor@example.test', role: 'editor', invitedBy: 'Ada Admin' });
    const token = await invitationToken(app, 'Eve.Editor@example.test');

    const stranger = await createUserWithSession(app, { email: 'someone-else@example.test' });
    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', stranger.user.id).execute();
    const wrong = await app.inject({ method: 'POST', url: '/api/staff/invitations/accept', headers: stranger.headers, payload: { token } });
    expect(wrong.statusCode).toBe(403);

    const eve = await createUserWithSession(app, { email: 'eve.editor@example.test', emailVerified: false });
    const unverified = await app.inject({ method: 'POST', url: '/api/staff/invitations/accept', headers: eve.headers, payload: { token } });
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().error.message).toMatch(/Confirm your e-mail/);

    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', eve.user.id).execute();
    const accepted = await app.inject({ method: 'POST', url: '/api/staff/invitations/accept', headers: eve.headers, payload: { token } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().user.userRoles).toEqual(['user', 'editor', 'admin']);

    const again = await app.inject({ method: 'POST', url: '/api/staff/invitations/accept', headers: eve.headers, payload: { token } });
    expect(again.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/admin/products', headers: eve.headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/admin/orders', headers: eve.headers })).statusCode).toBe(403);

    const list = (await app.inject({ method: 'GET', url: '/api/admin/staff', headers: admin.headers })).json<StaffList>();
    expect(list.staff.map((member) => [member.email, member.role])).toEqual([
      [admin.user.email, 'owner'],
      ['eve.editor@example.test', 'editor'],
    ]);
    expect(list.invitations).toEqual([]);
  });

  test('a withdrawn invitation no longer works', async ({ app, admin }) => {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/admin/staff/invitations',
      headers: admin.headers,
      payload: { email: 'x@example.test', role: 'sales' },
    });
    const token = await invitationToken(app, 'x@example.test');
    const withdrawn = await app.inject({
      method: 'DELETE',
      url: `/api/admin/staff/invitations/${invited.json().id}`,
      headers: admin.headers,
    });
    expect(withdrawn.statusCode).toBe(204);
    const x = await createUserWithSession(app, { email: 'x@example.test' });
    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', x.user.id).execute();
    const response = await app.inject({ method: 'POST', url: '/api/staff/invitations/accept', headers: x.headers, payload: { token } });
    expect(response.statusCode).toBe(404);
  });

  test('refuses an invitation to something that is no e-mail address or no role', async ({ app, admin }) => {
    for (const payload of [
      { email: 'not-an-address', role: 'sales' },
      { email: 'a@example.test', role: 'admin' },
    ]) {
      const response = await app.inject({ method: 'POST', url: '/api/admin/staff/invitations', headers: admin.headers, payload });
      expect(response.statusCode).toBe(400);
    }
  });

  test('an owner changes and removes roles, but the last owner cannot remove themself', async ({ app, admin }) => {
    const sam = await createUserWithSession(app, { roles: ['user', 'sales'] });
    const changed = await app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${sam.user.id}/role`,
      headers: admin.headers,
      payload: { role: 'accountant' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().role).toBe('accountant');

    const selfDemotion = await app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${admin.user.id}/role`,
      headers: admin.headers,
      payload: { role: 'sales' },
    });
    expect(selfDemotion.statusCode).toBe(409);
    expect(selfDemotion.json().error.code).toBe('LAST_OWNER');
    const selfRemoval = await app.inject({ method: 'DELETE', url: `/api/admin/staff/${admin.user.id}`, headers: admin.headers });
    expect(selfRemoval.statusCode).toBe(409);

    const removed = await app.inject({ method: 'DELETE', url: `/api/admin/staff/${sam.user.id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    const roles = await app.db.selectFrom('users').select('roles').where('id', '=', sam.user.id).executeTakeFirstOrThrow();
    expect(roles.roles).toEqual(['user']);
    // The change holds on the very next request of the removed person's live session.
    expect((await app.inject({ method: 'GET', url: '/api/admin/orders', headers: sam.headers })).statusCode).toBe(403);
  });

  test('two owners demoting each other at once leave one owner', async ({ app, admin }) => {
    const other = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const answers = await Promise.all([
      app.inject({ method: 'PUT', url: `/api/admin/staff/${other.user.id}/role`, headers: admin.headers, payload: { role: 'sales' } }),
      app.inject({ method: 'PUT', url: `/api/admin/staff/${admin.user.id}/role`, headers: other.headers, payload: { role: 'sales' } }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // Whoever is demoted first loses staff.manage, so the second request is refused either way.
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const owners = await sql<{ n: number }>`select count(*)::int as n from users where 'owner' = any(roles)`.execute(app.db);
    expect(owners.rows[0]!.n).toBe(1);
  });

  test('a sales person may refund up to the configured limit, not above', async ({ app }) => {
    const sam = await createUserWithSession(app, { roles: ['user', 'sales'] });
    const above = await app.inject({
      method: 'POST',
      url: '/api/admin/orders/00000000-0000-4000-8000-000000000000/refund',
      headers: sam.headers,
      payload: { amountCents: 100_001, idempotencyKey: 'sales-above-1' },
    });
    expect(above.statusCode).toBe(403);
    expect(above.json().error.code).toBe('REFUND_LIMIT');
    const within = await app.inject({
      method: 'POST',
      url: '/api/admin/orders/00000000-0000-4000-8000-000000000000/refund',
      headers: sam.headers,
      payload: { amountCents: 100_000, idempotencyKey: 'sales-within-1' },
    });
    // Past the limit check: the order does not exist.
    expect(within.statusCode).toBe(404);
  });
});
