import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_WORDS, TRANSITIONS, transitionOrder, type Actor } from '../../src/features/orders/order-state.js';
import { ORDER_STATUSES, type OrderStatus } from '@boatshop/contract';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { insertPendingOrder } from '../helpers/orders.js';
import { createUserWithSession } from '../helpers/users.js';

// Every pair of states, through the one function that changes them: allowed pairs move and write
// one event, every other pair is refused with 409 naming the current state and changes nothing.

let app: TestApp;
let userId: string;

beforeAll(async () => {
  app = await buildTestApp();
  await resetDatabase(app);
  userId = (await createUserWithSession(app)).user.id;
});
afterAll(() => app?.close());

async function orderIn(status: OrderStatus, shipped = false) {
  const order = await insertPendingOrder(app, userId);
  // Setting the state by hand, only here: the test needs an order in each state to start from.
  await sql`update orders set status = ${status}, shipped_at = ${shipped ? new Date() : null} where id = ${order.id}`.execute(app.db);
  return order.id;
}

const provider: Actor = { type: 'provider', id: null };
const admin: Actor = { type: 'admin', id: null };

describe('transitionOrder over every pair of states', () => {
  for (const from of ORDER_STATUSES) {
    it(`from ${from}: moves to ${TRANSITIONS[from].join(', ') || 'nothing'} and refuses the rest`, async () => {
      for (const to of ORDER_STATUSES) {
        // partially_refunded → delivered needs a shipped order; → shipped/cancelled an unshipped one.
        const id = await orderIn(from, from === 'partially_refunded' && to === 'delivered');
        const attempt = app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: id, to, actor: provider }));
        const events = () => app.db.selectFrom('order_events').select(['from_status', 'to_status']).where('order_id', '=', id).execute();
        if (TRANSITIONS[from].includes(to)) {
          await expect(attempt, `${from} → ${to}`).resolves.toMatchObject({ from, order: { status: to } });
          expect(await events()).toEqual([{ from_status: from, to_status: to }]);
        } else {
          await expect(attempt, `${from} → ${to}`).rejects.toMatchObject({
            statusCode: 409,
            code: 'INVALID_TRANSITION',
            message: expect.stringMatching(new RegExp(`^The order is ${STATUS_WORDS[from]}; it cannot be `)),
          });
          expect(await events()).toEqual([]);
          const row = await app.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow();
          expect(row.status).toBe(from);
        }
      }
    });
  }

  it('keeps a partially refunded order from shipping twice or being delivered before shipping', async () => {
    const shipped = await orderIn('partially_refunded', true);
    await expect(
      app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: shipped, to: 'shipped', actor: admin })),
    ).rejects.toMatchObject({ statusCode: 409 });
    await expect(
      app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: shipped, to: 'cancelled', actor: admin })),
    ).rejects.toMatchObject({ statusCode: 409 });
    const unshipped = await orderIn('partially_refunded');
    await expect(
      app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: unshipped, to: 'delivered', actor: admin })),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it('lets only the provider move a disputed order', async () => {
    const id = await orderIn('disputed');
    await expect(
      app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: id, to: 'refunded', actor: admin })),
    ).rejects.toMatchObject({
      message: 'The order is disputed; it cannot be refunded.',
    });
  });

  it('makes exactly one of 10 concurrent transitions from the same state', async () => {
    const id = await orderIn('paid');
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: id, to: i % 2 ? 'shipped' : 'cancelled', actor: admin })),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      Array(9).fill('INVALID_TRANSITION'),
    );
    expect(await app.db.selectFrom('order_events').select('id').where('order_id', '=', id).execute()).toHaveLength(1);
  });
});
