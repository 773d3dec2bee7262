import type { AuditPage } from '@boatshop/contract';
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { recordAudit, verifyAuditChain } from '../../../src/features/audit/audit-log.js';
import { createUserWithSession } from '../../helpers/users.js';
import { test } from '../../support/fixtures.js';

const NO_ORDER = '00000000-0000-4000-8000-000000000000';

describe('the audit log', () => {
  test('records every mutating admin request with who, role, address, what and the amount asked', async ({ app, admin }) => {
    const refund = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${NO_ORDER}/refund`,
      headers: admin.headers,
      remoteAddress: '203.0.113.7',
      payload: { amountCents: 28_900_000, idempotencyKey: 'audit-refund-1' },
    });
    expect(refund.statusCode).toBe(404);
    const editor = await createUserWithSession(app, { roles: ['user', 'editor'] });
    const denied = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${NO_ORDER}/refund`,
      headers: editor.headers,
      payload: { amountCents: 1, idempotencyKey: 'audit-refund-2' },
    });
    expect(denied.statusCode).toBe(403);
    // A read leaves no row.
    await app.inject({ method: 'GET', url: '/api/admin/orders', headers: admin.headers });

    const page = (await app.inject({ method: 'GET', url: '/api/admin/audit', headers: admin.headers })).json<AuditPage>();
    expect(page.entries).toHaveLength(2);
    const [refused, asked] = page.entries;
    expect(asked).toMatchObject({
      seq: 1,
      actorId: admin.user.id,
      actorEmail: admin.user.email,
      actorRole: 'owner',
      ip: '203.0.113.7',
      action: 'POST /api/admin/orders/:id/refund',
      targetType: 'orders',
      targetId: NO_ORDER,
      status: 404,
      details: { body: { amountCents: 28_900_000, idempotencyKey: 'audit-refund-1' } },
    });
    expect(refused).toMatchObject({ seq: 2, actorRole: 'editor', status: 403 });
  });

  test('a role change carries before and after, written once by the route', async ({ app, admin }) => {
    const sam = await createUserWithSession(app, { roles: ['user', 'sales'] });
    await app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${sam.user.id}/role`,
      headers: admin.headers,
      payload: { role: 'accountant' },
    });
    const page = (await app.inject({ method: 'GET', url: '/api/admin/audit', headers: admin.headers })).json<AuditPage>();
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]).toMatchObject({
      action: 'staff.role_changed',
      targetId: sam.user.id,
      before: { role: 'sales' },
      after: { role: 'accountant' },
    });
  });

  test('never keeps a password from a body', async ({ app, admin }) => {
    await app.inject({
      method: 'POST',
      url: '/api/admin/staff/invitations',
      headers: admin.headers,
      payload: { email: 'p@example.test', role: 'sales', password: 'hunter22' },
    });
    const row = await app.db.selectFrom('audit_log').select('details').executeTakeFirstOrThrow();
    expect(JSON.stringify(row.details)).not.toContain('hunter22');
  });

  test('the database refuses to change or delete a row', async ({ app, admin }) => {
    await app.inject({ method: 'DELETE', url: `/api/admin/staff/invitations/${NO_ORDER}`, headers: admin.headers });
    await expect(sql`update audit_log set action = 'nothing happened'`.execute(app.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(app.db)).rejects.toThrow(/append-only/);
    expect((await verifyAuditChain(app.db)).ok).toBe(true);
  });

  test('verify names the first row that was edited, or deleted, behind the trigger', async ({ app }) => {
    for (let n = 1; n <= 5; n += 1)
      await app.db
        .transaction()
        .execute((trx) => recordAudit(trx, { request: null, action: `job.step${n}`, details: { amountCents: n * 100 } }));
    expect(await verifyAuditChain(app.db)).toEqual({ ok: true, checked: 5 });

    await sql`alter table audit_log disable trigger audit_log_append_only`.execute(app.db);
    try {
      await sql`update audit_log set details = '{"amountCents": 1}' where seq = 3`.execute(app.db);
      expect(await verifyAuditChain(app.db)).toMatchObject({ ok: false, seq: 3, checked: 2 });
      await sql`update audit_log set details = '{"amountCents": 300}' where seq = 3`.execute(app.db);
      expect((await verifyAuditChain(app.db)).ok).toBe(true);
      await sql`delete from audit_log where seq = 4`.execute(app.db);
      expect(await verifyAuditChain(app.db)).toMatchObject({ ok: false, seq: 4, problem: 'row 4 is missing (next is 5)' });
    } finally {
      await sql`alter table audit_log enable trigger audit_log_append_only`.execute(app.db);
    }
  });

  test('writers racing each other extend one chain without a fork', async ({ app }) => {
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => app.db.transaction().execute((trx) => recordAudit(trx, { request: null, action: `race.${n}` }))),
    );
    expect(await verifyAuditChain(app.db)).toEqual({ ok: true, checked: 12 });
  });

  test('filters by actor, action and day, pages by cursor, exports CSV; sales and editors may not read it', async ({ app, admin }) => {
    const accountant = await createUserWithSession(app, { roles: ['user', 'accountant'] });
    for (let n = 0; n < 3; n += 1)
      await app.inject({ method: 'DELETE', url: `/api/admin/staff/invitations/${NO_ORDER}`, headers: admin.headers });
    await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${NO_ORDER}/refund`,
      headers: admin.headers,
      payload: { amountCents: 5, idempotencyKey: 'filter-refund-1' },
    });

    const refunds = (
      await app.inject({ method: 'GET', url: '/api/admin/audit?action=refund', headers: accountant.headers })
    ).json<AuditPage>();
    expect(refunds.entries.map((entry) => entry.action)).toEqual(['POST /api/admin/orders/:id/refund']);
    const first = (await app.inject({ method: 'GET', url: '/api/admin/audit?limit=3', headers: accountant.headers })).json<AuditPage>();
    expect(first.entries.map((entry) => entry.seq)).toEqual([4, 3, 2]);
    const second = (
      await app.inject({ method: 'GET', url: `/api/admin/audit?limit=3&before=${first.nextBefore}`, headers: accountant.headers })
    ).json<AuditPage>();
    expect(second).toMatchObject({ entries: [{ seq: 1 }], nextBefore: null });
    const today = new Date().toISOString().slice(0, 10);
    const none = (
      await app.inject({
        method: 'GET',
        url: `/api/admin/audit?to=2020-01-01&actor=${encodeURIComponent(admin.user.email)}`,
        headers: accountant.headers,
      })
    ).json<AuditPage>();
    expect(none.entries).toEqual([]);
    const todays = (
      await app.inject({
        method: 'GET',
        url: `/api/admin/audit?from=${today}&to=${today}&actor=${encodeURIComponent(admin.user.email)}`,
        headers: accountant.headers,
      })
    ).json<AuditPage>();
    expect(todays.entries).toHaveLength(4);

    const csv = await app.inject({ method: 'GET', url: '/api/admin/audit/export?action=refund', headers: accountant.headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('seq,at,actorEmail,actorRole,ip,action,targetType,targetId,status,before,after,details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(admin.user.email);
    expect(lines[1]).toContain('""amountCents"":5');

    for (const role of ['sales', 'editor']) {
      const who = await createUserWithSession(app, { roles: ['user', role] });
      expect((await app.inject({ method: 'GET', url: '/api/admin/audit', headers: who.headers })).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/api/admin/audit/export', headers: who.headers })).statusCode).toBe(403);
    }
  });
});
