import { describe, expect } from 'vitest';
import { markOrderPaid } from '../../../src/features/orders/orders.write-repository.js';
import { insertPendingOrder } from '../../helpers/orders.js';
import { it } from '../../support/fixtures.js';

// The money path itself numbers the documents: 20 card payments confirmed at once (as 20
// webhooks would) get 20 invoices numbered one after another, and a confirmation replayed for a
// payment already applied makes no second document.

const YEAR = new Date().getUTCFullYear();

describe('documents of payments confirmed concurrently', () => {
  it('20 payments confirmed at once get 20 consecutive invoice numbers; replays add none', async ({ app, shopper }) => {
    const orders: Awaited<ReturnType<typeof insertPendingOrder>>[] = [];
    for (let i = 0; i < 20; i += 1) orders.push(await insertPendingOrder(app, shopper.user.id, { quantity: 1 }));
    const confirm = (order: (typeof orders)[number]) =>
      markOrderPaid(app.db, { paymentReference: order.paymentReference, amountCents: order.totalCents, currency: 'eur' });
    const paid = await Promise.all(orders.map(confirm));
    expect(paid.filter(Boolean)).toHaveLength(20);

    const invoices = await app.db.selectFrom('invoices').select(['number', 'order_id', 'kind', 'event_key']).orderBy('number').execute();
    expect(invoices.map((invoice) => invoice.number)).toEqual(
      Array.from({ length: 20 }, (_, index) => `${YEAR}-${String(index + 1).padStart(6, '0')}`),
    );
    expect(new Set(invoices.map((invoice) => invoice.order_id)).size).toBe(20);
    expect(invoices.every((invoice) => invoice.kind === 'invoice')).toBe(true);

    expect((await Promise.all(orders.map(confirm))).filter(Boolean)).toHaveLength(0);
    expect(await app.db.selectFrom('invoices').select('id').execute()).toHaveLength(20);
  });
});
