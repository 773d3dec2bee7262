import { appendLedgerEntry } from '../../src/features/ledger/ledger.js';
import type { LedgerKind } from '../../src/features/ledger/ledger.table.js';
import { markOrderPaid } from '../../src/features/orders/orders.write-repository.js';
import type { TestApp } from './build-test-app.js';
import { insertProduct } from './products.js';

let counter = 0;

export const SHIPPING = {
  name: 'Sandy Shopper',
  address: { line1: '1 Harbour Road', city: 'Cork', state: 'Cork', postal_code: 'T12 X2Y3', country: 'IE' },
};
export const BILLING = {
  name: 'Sandy Card-Owner',
  address: { line1: '2 Quay Street', city: 'Galway', state: 'Galway', postal_code: 'H91 A2B3', country: 'IE' },
};

/**
 * An order as the checkout leaves it: pending with its items and its card payment line (intent
 * `paymentReference`, which need not exist at a provider unless the test refunds it).
 */
export async function insertPendingOrder(
  app: TestApp,
  userId: string,
  options: { unitPriceCents?: number; quantity?: number; paymentReference?: string; createdAt?: Date } = {},
) {
  counter += 1;
  const unit = options.unitPriceCents ?? 1_000_000;
  const quantity = options.quantity ?? 2;
  const product = await insertProduct(app, { price_cents: unit });
  const paymentReference = options.paymentReference ?? `pi_test_${process.pid}_${counter}_${Date.now()}`;
  const order = await app.db
    .insertInto('orders')
    .values({
      user_id: userId,
      status: 'pending',
      total_cents: unit * quantity,
      shipping: JSON.stringify(SHIPPING),
      billing: JSON.stringify(BILLING),
      payment_reference: paymentReference,
      ...(options.createdAt ? { created_at: options.createdAt } : {}),
    })
    .returning(['id', 'total_cents'])
    .executeTakeFirstOrThrow();
  await app.db
    .insertInto('order_items')
    .values({
      order_id: order.id,
      product_id: product.id,
      name: product.name,
      thumbnail_url: '/api/images/x.svg',
      unit_price_cents: unit,
      quantity,
    })
    .execute();
  await app.db
    .insertInto('order_payments')
    .values({ order_id: order.id, method: 'card', amount_cents: unit * quantity, provider_reference: paymentReference })
    .execute();
  return { id: order.id, totalCents: order.total_cents, paymentReference };
}

/** A pending order made paid the way the webhook does it (order-state.ts, with its event and e-mail). */
export async function insertPaidOrder(app: TestApp, userId: string, options: Parameters<typeof insertPendingOrder>[2] = {}) {
  const order = await insertPendingOrder(app, userId, options);
  const paid = await markOrderPaid(app.db, { paymentReference: order.paymentReference, amountCents: order.totalCents, currency: 'eur' });
  if (paid !== order.id) throw new Error('the test order did not become paid');
  return order;
}

/**
 * Books movements in an order's ledger directly, for tests that start from an order in a given
 * state: each entry `[kind, signed cents]`, with a reference unique to the call.
 */
export async function bookLedger(app: TestApp, orderId: string, entries: [LedgerKind, number][]) {
  await app.db.transaction().execute(async (trx) => {
    for (const [kind, amountCents] of entries) {
      counter += 1;
      const reference = `test_${kind}_${process.pid}_${counter}_${Date.now()}`;
      await appendLedgerEntry(trx, {
        orderId,
        kind,
        amountCents,
        source: kind.startsWith('bank') ? 'bank' : 'card',
        reference,
        disputeId: kind.startsWith('dispute') ? `du_${orderId}` : null,
        actor: { type: 'system', id: null },
      });
    }
  });
}
