import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { transitionOrder } from '../../../src/features/orders/order-state.js';
import type { AdminOrder, AdminOrderPage } from '@boatshop/contract';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { insertPaidOrder, insertPendingOrder } from '../../helpers/orders.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';

let app: TestApp;
let admin: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  app = await buildTestApp();
});
beforeEach(async () => {
  await resetDatabase(app);
  admin = await createUserWithSession(app, { roles: ['user', 'owner'], displayName: 'Ada Admin' });
  shopper = await createUserWithSession(app, { email: 'sandy.shopper@example.test' });
});
afterAll(() => app?.close());

function get(url: string, who: UserWithSession | null = admin) {
  return app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
}

function post(url: string, payload: object, who: UserWithSession = admin) {
  return app.inject({ method: 'POST', url, headers: who.headers, payload });
}

async function statusOf(id: string) {
  return (await app.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
}

describe('admin orders: who may see them', () => {
  it('answers 401 to a stranger and 403 to a shopper, on reads and actions alike', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    expect((await get('/api/admin/orders', null)).statusCode).toBe(401);
    expect((await get('/api/admin/orders', shopper)).statusCode).toBe(403);
    expect((await get(`/api/admin/orders/${order.id}`, shopper)).statusCode).toBe(403);
    expect((await post(`/api/admin/orders/${order.id}/ship`, {}, shopper)).statusCode).toBe(403);
    expect(await statusOf(order.id)).toBe('paid');
  });
});

describe('GET /api/admin/orders', () => {
  it('lists orders newest first with customer, item count and refunded amount, leaving unpaid attempts out', async () => {
    const older = await insertPaidOrder(app, shopper.user.id, { createdAt: new Date('2026-11-20T10:00:00Z') });
    const newer = await insertPaidOrder(app, shopper.user.id, { createdAt: new Date('2026-11-21T10:00:00Z'), quantity: 3 });
    await insertPendingOrder(app, shopper.user.id);

    const response = await get('/api/admin/orders');
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<AdminOrderPage>();
    expect(page.data.map((order) => order.id)).toEqual([newer.id, older.id]);
    expect(page.data[0]).toMatchObject({
      status: 'paid',
      totalCents: newer.totalCents,
      refundedCents: 0,
      itemCount: 3,
      customer: { id: shopper.user.id, email: 'sandy.shopper@example.test' },
    });
    expect(page).toMatchObject({ cursor: null, isLastPage: true });
  });

  it('shows pending attempts when the status filter names them, and filters by day range, e-mail and id', async () => {
    const pending = await insertPendingOrder(app, shopper.user.id, { createdAt: new Date('2026-11-19T23:59:00Z') });
    const paid = await insertPaidOrder(app, shopper.user.id, { createdAt: new Date('2026-11-20T00:00:00Z') });
    const other = await createUserWithSession(app, { email: 'other.buyer@example.test' });
    const othersOrder = await insertPaidOrder(app, other.user.id, { createdAt: new Date('2026-11-22T12:00:00Z') });

    const ids = async (query: string) => (await get(`/api/admin/orders?${query}`)).json<AdminOrderPage>().data.map((o) => o.id);
    expect(await ids('status=pending')).toEqual([pending.id]);
    expect(await ids('from=2026-11-20&to=2026-11-21')).toEqual([paid.id]);
    expect(await ids('to=2026-11-22')).toEqual([othersOrder.id, paid.id]);
    expect(await ids('q=OTHER.buyer')).toEqual([othersOrder.id]);
    expect(await ids(`q=${paid.id}`)).toEqual([paid.id]);
    expect(await ids(`q=${othersOrder.id.slice(0, 8)}`)).toEqual([othersOrder.id]);
  });

  it('pages with a keyset cursor and refuses a made-up cursor or a bad date with 400', async () => {
    const made: string[] = [];
    for (let day = 1; day <= 5; day += 1) {
      made.push((await insertPaidOrder(app, shopper.user.id, { createdAt: new Date(`2026-11-0${day}T08:00:00Z`) })).id);
    }
    const first = (await get('/api/admin/orders?limit=2')).json<AdminOrderPage>();
    expect(first.data.map((o) => o.id)).toEqual([made[4], made[3]]);
    expect(first.isLastPage).toBe(false);
    const second = (await get(`/api/admin/orders?limit=2&cursor=${first.cursor}`)).json<AdminOrderPage>();
    const third = (await get(`/api/admin/orders?limit=2&cursor=${second.cursor}`)).json<AdminOrderPage>();
    expect([...second.data, ...third.data].map((o) => o.id)).toEqual([made[2], made[1], made[0]]);
    expect(third).toMatchObject({ isLastPage: true, cursor: null });

    const forged = Buffer.from('99999-01-01T00:00:00Z|nope').toString('base64url');
    for (const query of [`cursor=${forged}`, 'cursor=%00', 'from=2026-13-45', 'limit=0', 'limit=101', 'status=lost']) {
      const response = await get(`/api/admin/orders?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBeTruthy();
    }
  });
});

describe('GET /api/admin/orders/:id', () => {
  it('answers the order with items, addresses, payments, events and the actions its state allows', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    const response = await get(`/api/admin/orders/${order.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<AdminOrder>();
    expect(body).toMatchObject({
      id: order.id,
      status: 'paid',
      refundableCents: order.totalCents,
      allowedActions: ['ship', 'cancel', 'refund'],
      carrier: null,
      trackingNumber: null,
      shipping: { name: 'Sandy Shopper' },
      billing: { name: 'Sandy Card-Owner' },
    });
    expect(body.items).toHaveLength(1);
    expect(body.payments).toEqual([
      expect.objectContaining({
        method: 'card',
        amountCents: order.totalCents,
        providerReference: order.paymentReference,
        status: 'succeeded',
      }),
    ]);
    expect(body.events).toEqual([
      expect.objectContaining({
        fromStatus: 'pending',
        toStatus: 'paid',
        actor: { type: 'provider', id: null, name: null },
        amountCents: order.totalCents,
      }),
    ]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await get('/api/admin/orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/api/admin/orders/not-an-id')).statusCode).toBe(404);
  });
});

describe('ship and deliver', () => {
  it('ships with carrier and tracking number, then delivers, recording the admin on each event', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    const shipped = await post(`/api/admin/orders/${order.id}/ship`, { carrier: ' DHL Marine ', trackingNumber: 'JD0146' });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json<AdminOrder>()).toMatchObject({
      status: 'shipped',
      carrier: 'DHL Marine',
      trackingNumber: 'JD0146',
      allowedActions: ['deliver', 'refund'],
    });

    const delivered = await post(`/api/admin/orders/${order.id}/deliver`, {});
    expect(delivered.statusCode, delivered.body).toBe(200);
    const body = delivered.json<AdminOrder>();
    expect(body.status).toBe('delivered');
    expect(body.allowedActions).toEqual(['refund']);
    expect(body.events.slice(1)).toEqual([
      expect.objectContaining({
        fromStatus: 'paid',
        toStatus: 'shipped',
        actor: { type: 'admin', id: admin.user.id, name: 'Ada Admin' },
        note: 'Carrier: DHL Marine, tracking number: JD0146',
      }),
      expect.objectContaining({
        fromStatus: 'shipped',
        toStatus: 'delivered',
        actor: { type: 'admin', id: admin.user.id, name: 'Ada Admin' },
      }),
    ]);
  });

  it('refuses what the state does not allow with 409 INVALID_TRANSITION naming the current state', async () => {
    const pending = await insertPendingOrder(app, shopper.user.id);
    const paid = await insertPaidOrder(app, shopper.user.id);
    const cases: [string, string, string][] = [
      [pending.id, 'ship', 'The order is pending; it cannot be shipped.'],
      [pending.id, 'deliver', 'The order is pending; it cannot be marked delivered.'],
      [paid.id, 'deliver', 'The order is paid; it cannot be marked delivered.'],
    ];
    for (const [id, action, message] of cases) {
      const response = await post(`/api/admin/orders/${id}/${action}`, {});
      expect(response.statusCode, action).toBe(409);
      expect(response.json()).toEqual({ error: { code: 'INVALID_TRANSITION', message } });
    }
    await post(`/api/admin/orders/${paid.id}/ship`, {});
    const again = await post(`/api/admin/orders/${paid.id}/ship`, {});
    expect(again.json().error.message).toBe('The order is shipped; it cannot be shipped.');
    const cancel = await post(`/api/admin/orders/${paid.id}/cancel`, {});
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error.message).toBe('The order is shipped; it cannot be cancelled.');
  });

  it('makes one transition out of two admins shipping at once; the other is refused', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    const other = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const responses = await Promise.all([
      post(`/api/admin/orders/${order.id}/ship`, { trackingNumber: 'A1' }),
      post(`/api/admin/orders/${order.id}/ship`, { trackingNumber: 'B2' }, other),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const events = await app.db
      .selectFrom('order_events')
      .select('to_status')
      .where('order_id', '=', order.id)
      .where('to_status', '=', 'shipped')
      .execute();
    expect(events).toHaveLength(1);
  });

  it('validates the body: a tracking number over 100 characters or of the wrong type is 400', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    expect((await post(`/api/admin/orders/${order.id}/ship`, { trackingNumber: 'x'.repeat(101) })).statusCode).toBe(400);
    expect((await post(`/api/admin/orders/${order.id}/ship`, { trackingNumber: { a: 1 } })).statusCode).toBe(400);
    expect(await statusOf(order.id)).toBe('paid');
  });
});

describe('order-state.ts', () => {
  it('refuses from a terminal state and writes no event', async () => {
    const order = await insertPendingOrder(app, shopper.user.id);
    await app.db
      .transaction()
      .execute((trx) => transitionOrder(trx, { orderId: order.id, to: 'expired', actor: { type: 'system', id: null } }));
    for (const to of ['paid', 'shipped', 'cancelled', 'refunded', 'pending'] as const) {
      await expect(
        app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: order.id, to, actor: { type: 'system', id: null } })),
      ).rejects.toMatchObject({ statusCode: 409, code: 'INVALID_TRANSITION' });
    }
    const events = await app.db.selectFrom('order_events').select('to_status').where('order_id', '=', order.id).execute();
    expect(events).toEqual([{ to_status: 'expired' }]);
  });
});

describe('the shopper follows the order', () => {
  it('shows state, tracking and a timeline without admin ids or names; history keeps unpaid attempts out', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    await insertPendingOrder(app, shopper.user.id);
    await post(`/api/admin/orders/${order.id}/ship`, { carrier: 'DHL Marine', trackingNumber: 'JD0146' });

    const response = await get(`/api/orders/${order.id}`, shopper);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'shipped', carrier: 'DHL Marine', trackingNumber: 'JD0146', refundedCents: 0 });
    expect(body.timeline).toEqual([
      { status: 'paid', at: expect.any(String), amountCents: order.totalCents, note: null },
      { status: 'shipped', at: expect.any(String), amountCents: null, note: 'Carrier: DHL Marine, tracking number: JD0146' },
    ]);
    expect(JSON.stringify(body)).not.toContain(admin.user.id);

    const history = (await get('/api/orders', shopper)).json<{ data: { id: string; status: string }[] }>();
    expect(history.data).toEqual([expect.objectContaining({ id: order.id, status: 'shipped' })]);
  });
});

describe('bad input on the admin order routes', () => {
  it('answers 400, never 500, to NUL bytes, huge strings and nonsense', async () => {
    const order = await insertPaidOrder(app, shopper.user.id);
    const cases: [string, string, object | undefined][] = [
      ['GET', '/api/admin/orders?q=%00abc', undefined],
      ['GET', `/api/admin/orders?q=${'x'.repeat(300)}`, undefined],
      ['GET', '/api/admin/orders?cursor=%00', undefined],
      ['GET', '/api/admin/orders?from=2026-02-30', undefined],
      ['POST', `/api/admin/orders/${order.id}/ship`, { carrier: 'DHL\u0000' }],
      ['POST', `/api/admin/orders/${order.id}/cancel`, { reason: 'x\u0000' }],
      ['POST', `/api/admin/orders/${order.id}/refund`, { amountCents: 1e20, idempotencyKey: 'abcdefghij' }],
      ['POST', `/api/admin/orders/${order.id}/refund`, { amountCents: 100, idempotencyKey: 'abc\u0000defgh' }],
      ['POST', '/api/admin/unmatched-payments/not-a-uuid/resolve', { note: 'x\u0000' }],
    ];
    for (const [method, url, payload] of cases) {
      const response = await app.inject({ method: method as 'GET' | 'POST', url, headers: admin.headers, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(400);
      expect(response.json().error.code).toBeTruthy();
    }
    expect(await statusOf(order.id)).toBe('paid');
  });
});
