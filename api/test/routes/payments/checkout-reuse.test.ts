import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expirePendingOrders } from '../../../src/features/orders/order-expiry.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { createBody, insertProduct, intentIdOf, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';
import { DEV_STRIPE } from '../../../src/config.js';

let harness: PaymentsHarness;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(async () => {
  harness.setWebhooksReachable(true);
  await resetDatabase(harness.app);
  shopper = await createUserWithSession(harness.app);
});
afterAll(() => harness?.close());

function pay(items: { productId: string; quantity: number }[], total: number, who = shopper) {
  return harness.app.inject({ method: 'POST', url: '/api/payments/create', headers: who.headers, payload: createBody(items, total) });
}

async function orders() {
  return harness.app.db.selectFrom('orders').select(['id', 'status', 'payment_reference']).orderBy('created_at').execute();
}

describe('POST /api/payments/create, pressed again', () => {
  it('reuses the open order and its intent when the cart is unchanged (Pay twice, reopening /payment)', async () => {
    const productId = await insertProduct(harness.app, { priceCents: 1_000_000 });
    const first = await pay([{ productId, quantity: 1 }], 1_000_000);
    const second = await pay([{ productId, quantity: 1 }], 1_000_000);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json()).toEqual(first.json());
    expect(await orders()).toHaveLength(1);
  });

  it('makes one order and one intent out of concurrent presses', async () => {
    const productId = await insertProduct(harness.app, { priceCents: 1_000_000 });
    const responses = await Promise.all(Array.from({ length: 5 }, () => pay([{ productId, quantity: 2 }], 2_000_000)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(5).fill(201));
    expect(new Set(responses.map((r) => r.json().orderId)).size).toBe(1);
    expect(new Set(responses.map((r) => intentIdOf(r.json().clientSecret))).size).toBe(1);
    const rows = await orders();
    expect(rows).toHaveLength(1);
    const payments = await harness.app.db.selectFrom('order_payments').select(['provider_reference', 'status']).execute();
    expect(payments).toEqual([{ provider_reference: rows[0]!.payment_reference, status: 'pending' }]);
  });

  it('cancels the previous order and its intent at the provider when the cart changed', async () => {
    const productId = await insertProduct(harness.app, { priceCents: 1_000_000 });
    const first = await pay([{ productId, quantity: 1 }], 1_000_000);
    const second = await pay([{ productId, quantity: 2 }], 2_000_000);
    expect(second.json().orderId).not.toBe(first.json().orderId);
    const firstIntent = intentIdOf(first.json().clientSecret);
    expect((await harness.stripe.paymentIntents.retrieve(firstIntent)).status).toBe('canceled');
    expect((await orders()).map((o) => o.status)).toEqual(['cancelled', 'pending']);
    // Another shopper's open order is none of this shopper's business.
    const other = await createUserWithSession(harness.app);
    await pay([{ productId, quantity: 3 }], 3_000_000, other);
    expect((await orders()).map((o) => o.status)).toEqual(['cancelled', 'pending', 'pending']);
  });
});

describe('pending order expiry', () => {
  it('expires unpaid orders after the configured time and cancels their intents at the provider', async () => {
    const productId = await insertProduct(harness.app, { priceCents: 1_000_000 });
    const created = await pay([{ productId, quantity: 1 }], 1_000_000);
    const fresh = await pay([{ productId, quantity: 1 }], 1_000_000, await createUserWithSession(harness.app));
    await harness.app.db
      .updateTable('orders')
      .set({ created_at: new Date(Date.now() - 25 * 60 * 60 * 1000) } as never)
      .where('id', '=', created.json().orderId)
      .execute();

    expect(await expirePendingOrders(harness.app.db, harness.app.payments, harness.app.log, 24 * 60)).toBe(1);
    const rows = await harness.app.db.selectFrom('orders').select(['id', 'status']).execute();
    expect(rows.find((r) => r.id === created.json().orderId)?.status).toBe('expired');
    expect(rows.find((r) => r.id === fresh.json().orderId)?.status).toBe('pending');
    expect((await harness.stripe.paymentIntents.retrieve(intentIdOf(created.json().clientSecret))).status).toBe('canceled');
    // The provider's payment_intent.canceled for it changes nothing more.
    await harness.webhookDelivered('payment_intent.canceled', intentIdOf(created.json().clientSecret));
    expect(
      (await harness.app.db.selectFrom('order_events').select('to_status').where('order_id', '=', created.json().orderId).execute()).map(
        (e) => e.to_status,
      ),
    ).toEqual(['expired']);
    // Pressing Pay again for the same cart opens a new order instead of reviving the expired one.
    const again = await pay([{ productId, quantity: 1 }], 1_000_000);
    expect(again.json().orderId).not.toBe(created.json().orderId);
  });
});

describe('money received without an order', () => {
  function deliver(intent: object, eventId = `evt_${Math.random().toString(36).slice(2)}`) {
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object: intent },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.succeeded',
    });
    const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
    return harness.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  }
  const intent = (id: string, amount: number, currency = 'eur') => ({
    id,
    object: 'payment_intent',
    amount,
    currency,
    status: 'succeeded',
    client_secret: null,
    last_payment_error: null,
  });

  it('records an intent matching no order, and one whose amount or currency differ, once each, for the admin', async () => {
    const admin = await createUserWithSession(harness.app, { roles: ['user', 'owner'] });
    const productId = await insertProduct(harness.app, { priceCents: 1_000_000 });
    const created = await pay([{ productId, quantity: 1 }], 1_000_000);
    const intentId = intentIdOf(created.json().clientSecret);

    expect((await deliver(intent('pi_nobody_knows', 4_200))).statusCode).toBe(200);
    expect((await deliver(intent(intentId, 999, 'eur'), 'evt_mismatch_1')).statusCode).toBe(200);
    expect((await deliver(intent(intentId, 999, 'eur'), 'evt_mismatch_1')).statusCode).toBe(200);

    const list = await harness.app.inject({ method: 'GET', url: '/api/admin/unmatched-payments', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    const data = list.json().data as {
      id: string;
      providerReference: string;
      amountCents: number;
      reason: string;
      resolvedAt: string | null;
    }[];
    const found = data.map((d) => [d.providerReference, d.amountCents, d.reason]);
    expect(found).toHaveLength(2);
    expect(found).toEqual(
      expect.arrayContaining([
        [intentId, 999, 'amount_mismatch'],
        ['pi_nobody_knows', 4_200, 'no_order'],
      ]),
    );
    expect((await orders())[0]!.status).toBe('pending');

    const resolved = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/unmatched-payments/${data[0]!.id}/resolve`,
      headers: admin.headers,
      payload: { note: 'Refunded by hand' },
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().resolvedAt).toEqual(expect.any(String));
    const forbidden = await harness.app.inject({ method: 'GET', url: '/api/admin/unmatched-payments', headers: shopper.headers });
    expect(forbidden.statusCode).toBe(403);
  });
});
