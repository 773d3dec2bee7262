import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { transitionOrder, type Actor } from '../../../src/features/orders/order-state.js';
import { reserveOrderStock, restockOrderStock } from '../../../src/features/stock/stock.repository.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { BILLING, bookLedger, SHIPPING } from '../../helpers/orders.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';

const admin: Actor = { type: 'admin', id: null };
const provider: Actor = { type: 'provider', id: null };

// A paid order of a one-off boat, cancelled by an admin before shipping (with a full refund): the
// boat never left the quay, so it must be for sale again, once, however many cancels race.
describe('cancelling a paid order before shipping puts its boat back on hand', () => {
  let app: TestApp;
  let userId: string;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(app);
    userId = (await createUserWithSession(app)).user.id;
  });
  afterAll(() => app?.close());

  async function paidOrderOfOneOffBoat() {
    const product = await insertProduct(app, { price_cents: 5_000_000, stock_on_hand: 1 });
    const order = await app.db
      .insertInto('orders')
      .values({
        user_id: userId,
        status: 'pending',
        total_cents: 5_000_000,
        shipping: JSON.stringify(SHIPPING),
        billing: JSON.stringify(BILLING),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('order_items')
      .values({
        order_id: order.id,
        product_id: product.id,
        name: product.name,
        thumbnail_url: '/api/images/x.svg',
        unit_price_cents: 5_000_000,
        quantity: 1,
      })
      .execute();
    await app.db.transaction().execute((trx) => reserveOrderStock(trx, order.id));
    await bookLedger(app, order.id, [['card_capture', 5_000_000]]);
    await app.db
      .transaction()
      .execute((trx) => transitionOrder(trx, { orderId: order.id, to: 'paid', actor: provider, amountCents: 5_000_000 }));
    return { orderId: order.id, productId: product.id };
  }

  const stockOf = (productId: string) =>
    app.db.selectFrom('products').select(['stock_on_hand', 'stock_reserved']).where('id', '=', productId).executeTakeFirstOrThrow();
  const stockStatusOf = async (orderId: string) =>
    (await app.db.selectFrom('orders').select('stock_status').where('id', '=', orderId).executeTakeFirstOrThrow()).stock_status;

  it('sells the boat on payment and restocks it on cancel', async () => {
    const { orderId, productId } = await paidOrderOfOneOffBoat();
    expect(await stockOf(productId)).toEqual({ stock_on_hand: 0, stock_reserved: 0 });
    expect(await stockStatusOf(orderId)).toBe('sold');

    await bookLedger(app, orderId, [['card_refund', -5_000_000]]);
    await app.db.transaction().execute((trx) => transitionOrder(trx, { orderId, to: 'cancelled', actor: admin }));

    expect(await stockOf(productId)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
    expect(await stockStatusOf(orderId)).toBe('restocked');
  });

  it('puts the units back once, whatever the number of concurrent or repeated restocks', async () => {
    const { orderId, productId } = await paidOrderOfOneOffBoat();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => app.db.transaction().execute((trx) => restockOrderStock(trx, orderId))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await restockOrderStock(app.db as never, orderId)).toBe(false);
    expect(await stockOf(productId)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
  });

  it('refuses a second cancel and moves no stock for it', async () => {
    const { orderId, productId } = await paidOrderOfOneOffBoat();
    await bookLedger(app, orderId, [['card_refund', -5_000_000]]);
    const attempts = await Promise.allSettled(
      [1, 2].map(() => app.db.transaction().execute((trx) => transitionOrder(trx, { orderId, to: 'cancelled', actor: admin }))),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(await stockOf(productId)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
  });
});
