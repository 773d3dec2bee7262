import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_STRIPE } from '../../../src/config.js';
import { markOrderPaid } from '../../../src/features/orders/orders.write-repository.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import {
  confirmCardLikeTheBrowser,
  createBody,
  insertProduct,
  intentIdOf,
  startPaymentsHarness,
  type PaymentsHarness,
} from './payments-test-kit.js';

const VISA = '4242424242424242';
const DECLINED_VISA = '4000000000000002';

let harness: PaymentsHarness;
beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(async () => {
  harness.setWebhooksReachable(true);
  await resetDatabase(harness.app);
});
afterAll(() => harness?.close());

async function openOrder(shopper: UserWithSession, priceCents = 2_500_000) {
  const productId = await insertProduct(harness.app, { name: 'Ketch', priceCents });
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: shopper.headers,
    payload: createBody([{ productId, quantity: 1 }], priceCents),
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<{ orderId: string; clientSecret: string; totalCents: number }>();
  return { ...created, productId, intentId: intentIdOf(created.clientSecret) };
}

function confirm(shopper: UserWithSession, orderId: string) {
  return harness.app.inject({ method: 'POST', url: '/api/payments/confirm', headers: shopper.headers, payload: { orderId } });
}

async function orderRow(orderId: string) {
  return harness.app.db.selectFrom('orders').select(['status', 'paid_at']).where('id', '=', orderId).executeTakeFirstOrThrow();
}

/** A webhook body and its header, signed with the SDK's own test helper. */
function signedEvent(
  type: string,
  intent: object,
  options: { eventId?: string; secret?: string; timestamp?: number } = {},
): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id: options.eventId ?? `evt_test_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object: intent },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  const signature = harness.stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? DEV_STRIPE.webhookSecret,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return { payload, signature };
}

function deliver(event: { payload: string; signature: string }) {
  return harness.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature },
    payload: event.payload,
  });
}

async function succeededIntent(intentId: string): Promise<Stripe.PaymentIntent> {
  return { ...(await harness.stripe.paymentIntents.retrieve(intentId)), status: 'succeeded' };
}

describe('paying an order', () => {
  it('becomes paid through the signed payment_intent.succeeded webhook and shows in the history', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret, intentId } = await openOrder(shopper);

    const charged = await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    expect(charged).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    const delivery = await harness.webhookDelivered('payment_intent.succeeded', intentId);

    expect(delivery.statusCode).toBe(200);
    const row = await orderRow(orderId);
    expect(row.status).toBe('paid');
    expect(row.paid_at).toBeInstanceOf(Date);
    const history = await harness.app.inject({ url: '/api/orders', headers: shopper.headers });
    expect(history.json()).toEqual({
      data: [{ id: orderId, createdAt: expect.any(String), totalCents: 2_500_000, status: 'paid' }],
    });
  });

  it('becomes paid through /confirm when no webhook gets through, by asking the provider', async () => {
    harness.setWebhooksReachable(false);
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret } = await openOrder(shopper);

    expect((await confirm(shopper, orderId)).json()).toEqual({ orderId, status: 'pending' });
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    const response = await confirm(shopper, orderId);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ orderId, status: 'paid' });
  });

  it('makes exactly one paid transition out of 20 concurrent confirmations and the webhook', async () => {
    harness.setWebhooksReachable(false);
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret, intentId } = await openOrder(shopper);
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);

    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => confirm(shopper, orderId)),
      deliver(signedEvent('payment_intent.succeeded', await succeededIntent(intentId))),
    ]);

    expect(responses.map((response) => response.statusCode)).toEqual(Array(21).fill(200));
    const paid = await harness.app.db.selectFrom('orders').select('id').where('status', '=', 'paid').execute();
    expect(paid).toEqual([{ id: orderId }]);
    // Every later attempt finds the order paid already: none of them transitions again.
    const again = await Promise.all(
      Array.from({ length: 20 }, () =>
        markOrderPaid(harness.app.db, { paymentReference: intentId, amountCents: 2_500_000, currency: 'eur' }),
      ),
    );
    expect(again.filter(Boolean)).toEqual([]);
  });

  it('lets only one of 20 concurrent transitions through the conditional update', async () => {
    harness.setWebhooksReachable(false);
    const shopper = await createUserWithSession(harness.app);
    const { orderId, intentId } = await openOrder(shopper);

    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        markOrderPaid(harness.app.db, { paymentReference: intentId, amountCents: 2_500_000, currency: 'eur' }),
      ),
    );

    expect(results.filter(Boolean)).toEqual([orderId]);
  });

  it('never marks paid an intent whose amount is not the order total', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, intentId } = await openOrder(shopper);
    const cheaper = { ...(await succeededIntent(intentId)), amount: 100 };

    expect((await deliver(signedEvent('payment_intent.succeeded', cheaper))).statusCode).toBe(200);

    expect((await orderRow(orderId)).status).toBe('pending');
  });
});

describe('a declined card', () => {
  it('shows the reason, fails the order through the webhook and leaves nothing paid', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret, intentId } = await openOrder(shopper);

    const declined = await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, DECLINED_VISA);
    expect(declined).toMatchObject({ status: 402, body: { error: { message: 'Your card was declined.', code: 'card_declined' } } });
    await harness.webhookDelivered('payment_intent.payment_failed', intentId);

    expect(await orderRow(orderId)).toEqual({ status: 'failed', paid_at: null });
    expect((await confirm(shopper, orderId)).json()).toEqual({ orderId, status: 'failed' });
    expect((await harness.app.inject({ url: '/api/orders', headers: shopper.headers })).json()).toEqual({ data: [] });
  });

  it('fails the order through /confirm too when the webhook does not arrive', async () => {
    harness.setWebhooksReachable(false);
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret } = await openOrder(shopper);
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, DECLINED_VISA);

    expect((await confirm(shopper, orderId)).json()).toEqual({ orderId, status: 'failed' });
  });

  it('still becomes paid when a retry on the same intent succeeds', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret, intentId } = await openOrder(shopper);
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, DECLINED_VISA);
    await harness.webhookDelivered('payment_intent.payment_failed', intentId);

    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', intentId);

    expect((await orderRow(orderId)).status).toBe('paid');
  });
});

describe('POST /api/payments/webhook', () => {
  it('rejects a body changed after signing', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, intentId } = await openOrder(shopper);
    const event = signedEvent('payment_intent.succeeded', await succeededIntent(intentId));
    const tampered = { ...event, payload: event.payload.replace('"livemode":false', '"livemode":false ') };

    const response = await deliver(tampered);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'INVALID_SIGNATURE', message: 'The webhook signature is not valid.' } });
    expect((await orderRow(orderId)).status).toBe('pending');
  });

  it('rejects a signature made with another secret, or none at all', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, intentId } = await openOrder(shopper);
    const intent = await succeededIntent(intentId);

    expect((await deliver(signedEvent('payment_intent.succeeded', intent, { secret: 'whsec_someone_else' }))).statusCode).toBe(400);
    const unsigned = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: signedEvent('payment_intent.succeeded', intent).payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await orderRow(orderId)).status).toBe('pending');
  });

  it('rejects a signature older than five minutes', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, intentId } = await openOrder(shopper);
    const stale = signedEvent('payment_intent.succeeded', await succeededIntent(intentId), {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });

    expect((await deliver(stale)).statusCode).toBe(400);
    expect((await orderRow(orderId)).status).toBe('pending');
  });

  it('applies an event once: a replay of the same event id changes nothing', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, intentId } = await openOrder(shopper);
    const intent = await harness.stripe.paymentIntents.retrieve(intentId);
    const failed = signedEvent(
      'payment_intent.payment_failed',
      { ...intent, last_payment_error: { type: 'card_error', message: 'Your card was declined.' } },
      { eventId: 'evt_test_replayed' },
    );

    expect((await deliver(failed)).statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe('failed');
    // Put the order back in play, as a retry on the same intent would; the replay must not fail it again.
    await harness.app.db.updateTable('orders').set({ status: 'pending' }).where('id', '=', orderId).execute();
    const replay = await deliver(failed);

    expect(replay.statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe('pending');
    expect(await harness.app.db.selectFrom('payment_events').select(['event_id', 'type']).execute()).toEqual([
      { event_id: 'evt_test_replayed', type: 'payment_intent.payment_failed' },
    ]);
  });

  it('acknowledges event types the shop does not handle', async () => {
    const response = await deliver(signedEvent('customer.created', { id: 'cus_test_1', object: 'customer' }));
    expect(response.statusCode).toBe(200);
    expect(await harness.app.db.selectFrom('payment_events').select('event_id').execute()).toEqual([]);
  });
});

describe('orders after payment', () => {
  it("keeps another user's order unreadable and unconfirmable", async () => {
    const owner = await createUserWithSession(harness.app);
    const stranger = await createUserWithSession(harness.app);
    const { orderId, clientSecret, intentId } = await openOrder(owner);
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', intentId);

    const read = await harness.app.inject({ url: `/api/orders/${orderId}`, headers: stranger.headers });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Order not found' } });
    expect((await confirm(stranger, orderId)).statusCode).toBe(404);
    expect((await harness.app.inject({ url: '/api/orders', headers: stranger.headers })).json()).toEqual({ data: [] });
  });

  it('keeps the prices paid when the product price changes later', async () => {
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret, intentId, productId } = await openOrder(shopper, 4_200_000);
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', intentId);

    await harness.app.db
      .updateTable('products')
      .set({ price_cents: 5_000_000, name: 'Ketch (new model)' })
      .where('id', '=', productId)
      .execute();
    const response = await harness.app.inject({ url: `/api/orders/${orderId}`, headers: shopper.headers });

    expect(response.json()).toMatchObject({
      id: orderId,
      status: 'paid',
      totalCents: 4_200_000,
      items: [{ productId, name: 'Ketch', unitPriceCents: 4_200_000, quantity: 1 }],
    });
  });
});
