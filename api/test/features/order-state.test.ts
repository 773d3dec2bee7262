import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_WORDS, TRANSITIONS, transitionOrder, type Actor } from '../../src/features/orders/order-state.js';
import { ORDER_STATUSES, type OrderStatus } from '@boatshop/contract';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { bookLedger, insertPendingOrder } from '../helpers/orders.js';
import { createUserWithSession } from '../helpers/users.js';

// Every pair of states, through the one function that changes them: allowed pairs move and write
// one event, every other pair is refused with 409 naming the current state and changes nothing.
// Each target also needs its money in the ledger (moneyFor books what the target requires).

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

/** Ledger rows that satisfy the money precondition of going to `to` on an order of `total`. */
function moneyFor(to: OrderStatus, total: number): Parameters<typeof bookLedger>[2] {
  switch (to) {
    case 'paid':
    case 'shipped':
    case 'delivered':
    case 'reserved':
      return [['card_capture', total]];
    case 'disputed':
      return [
        ['card_capture', total],
        ['dispute_opened', -total],
      ];
    case 'partially_refunded':
      return [
        ['card_capture', total],
        ['card_refund', -100],
      ];
    case 'refunded':
    case 'cancelled':
      return [
        ['card_capture', total],
        ['card_refund', -total],
      ];
    default:
      return [];
  }
}

const provider: Actor = { type: 'provider', id: null };
const admin: Actor = { type: 'admin', id: null };

describe('transitionOrder over every pair of states', () => {
  for (const from of ORDER_STATUSES) {
    it(`from ${from}: moves to ${TRANSITIONS[from].join(', ') || 'nothing'} and refuses the rest`, async () => {
      for (const to of ORDER_STATUSES) {
        // partially_refunded → delivered needs a shipped order; → shipped/cancelled an unshipped one.
        const id = await orderIn(from, from === 'partially_refunded' && to === 'delivered');
        await bookLedger(app, id, moneyFor(to, 2_000_000));
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
    await bookLedger(app, id, [['card_capture', 2_000_000]]);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: id, to: 'shipped', actor: admin })),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      Array(9).fill('INVALID_TRANSITION'),
    );
    expect(await app.db.selectFrom('order_events').select('id').where('order_id', '=', id).execute()).toHaveLength(1);
  });
});

describe('the money each state needs, derived from the ledger under the order lock', () => {
  const attempt = (id: string, to: OrderStatus, actor: Actor = admin) =>
    app.db.transaction().execute((trx) => transitionOrder(trx, { orderId: id, to, actor }));
  const refusedForMoney = { statusCode: 409, code: 'MONEY_PRECONDITION' };

  it('refuses paid, shipped and delivered until the whole total is received', async () => {
    const pending = await orderIn('pending');
    await bookLedger(app, pending, [['card_capture', 1_999_999]]);
    await expect(attempt(pending, 'paid', provider)).rejects.toMatchObject(refusedForMoney);
    const paid = await orderIn('paid');
    await expect(attempt(paid, 'shipped')).rejects.toMatchObject(refusedForMoney);
  });

  it('refuses shipping while money is at risk in a dispute, and after a lost dispute', async () => {
    const disputedDeposit = await orderIn('paid');
    await bookLedger(app, disputedDeposit, [
      ['card_capture', 2_000_000],
      ['dispute_opened', -200_000],
    ]);
    await expect(attempt(disputedDeposit, 'shipped')).rejects.toMatchObject({
      ...refusedForMoney,
      message: expect.stringContaining('is at risk in a dispute'),
    });
  });

  it('refuses to cancel an order that still holds the buyer’s money, and refunded with nothing refunded', async () => {
    const paid = await orderIn('paid');
    await bookLedger(app, paid, [['card_capture', 2_000_000]]);
    await expect(attempt(paid, 'cancelled')).rejects.toMatchObject(refusedForMoney);
    await expect(attempt(paid, 'refunded')).rejects.toMatchObject(refusedForMoney);
    await bookLedger(app, paid, [['card_refund', -2_000_000]]);
    await expect(attempt(paid, 'cancelled')).resolves.toMatchObject({ order: { status: 'cancelled' } });
  });

  it('refuses to expire an order that has received money', async () => {
    const pending = await orderIn('pending');
    await bookLedger(app, pending, [['card_capture', 2_000_000]]);
    await expect(attempt(pending, 'expired', { type: 'system', id: null })).rejects.toMatchObject(refusedForMoney);
  });
});
