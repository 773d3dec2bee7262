import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminOrder } from '@boatshop/contract';
import { formatEuro } from '../../../src/lib/money.js';
import { DEV_STRIPE } from '../../../src/config.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import {
  confirmCardLikeTheBrowser,
  createBody,
  insertProduct,
  intentIdOf,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../payments/payments-test-kit.js';

// Refunds and cancellations go through the real `stripe` SDK to the dev-services stand-in; its
// signed webhooks come back through the harness's relay.

let harness: PaymentsHarness;
let admin: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(async () => {
  harness.setWebhooksReachable(true);
  await resetDatabase(harness.app);
  admin = await createUserWithSession(harness.app, { roles: ['user', 'owner'], displayName: 'Ada Admin' });
  shopper = await createUserWithSession(harness.app);
});
afterAll(() => harness?.close());

async function openOrder(priceCents = 2_500_000) {
  const productId = await insertProduct(harness.app, { name: 'Ketch', priceCents });
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: shopper.headers,
    payload: createBody([{ productId, quantity: 1 }], priceCents),
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<{ orderId: string; clientSecret: string; totalCents: number }>();
  return { ...created, intentId: intentIdOf(created.clientSecret) };
}

async function paidOrder(priceCents = 2_500_000) {
  const order = await openOrder(priceCents);
  await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, '4242424242424242');
  await harness.webhookDelivered('payment_intent.succeeded', order.intentId);
  const chargeId = (await harness.stripe.paymentIntents.retrieve(order.intentId)).latest_charge as string;
  return { ...order, chargeId };
}

function act(orderId: string, action: string, payload: object, who = admin) {
  return harness.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/${action}`, headers: who.headers, payload });
}

async function adminOrder(orderId: string) {
  return (await harness.app.inject({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: admin.headers })).json<AdminOrder>();
}

async function refundedAtStripe(chargeId: string): Promise<number> {
  const refunds = await harness.stripe.refunds.list({ charge: chargeId, limit: 100 });
  return refunds.data.reduce((sum, refund) => sum + refund.amount, 0);
}

describe('POST /api/admin/orders/:id/refund', () => {
  it('refunds part, then the rest, through the provider: partially_refunded, then refunded, with events and the admin', async () => {
    const order = await paidOrder(2_500_000);
    const partial = await act(order.orderId, 'refund', { amountCents: 100_000, reason: 'Scratched hull', idempotencyKey: 'key-partial-1' });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json<AdminOrder>()).toMatchObject({
      status: 'partially_refunded',
      refundedCents: 100_000,
      refundableCents: 2_400_000,
      allowedActions: ['ship', 'cancel', 'refund'],
    });
    expect(partial.json<AdminOrder>().refunds).toEqual([
      expect.objectContaining({
        amountCents: 100_000,
        reason: 'Scratched hull',
        status: 'succeeded',
        createdBy: { type: 'admin', id: admin.user.id, name: 'Ada Admin' },
      }),
    ]);
    expect(partial.json<AdminOrder>().refunds[0]!.providerReference).toMatch(/^re_/);

    const rest = await act(order.orderId, 'refund', { amountCents: 2_400_000, idempotencyKey: 'key-rest-1' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json<AdminOrder>()).toMatchObject({ status: 'refunded', refundedCents: 2_500_000, refundableCents: 0, allowedActions: [] });
    expect(rest.json<AdminOrder>().events.map((e) => [e.toStatus, e.amountCents])).toEqual([
      ['paid', 2_500_000],
      ['partially_refunded', 100_000],
      ['refunded', 2_400_000],
    ]);
    // The provider's own charge.refunded webhooks change nothing: the shop made those refunds.
    await harness.webhookDelivered('charge.refunded', order.chargeId);
    expect((await adminOrder(order.orderId)).refunds).toHaveLength(2);
  });

  it('refuses more than paid minus refunded with 422 REFUND_TOO_LARGE naming the refundable amount', async () => {
    const order = await paidOrder(2_500_000);
    await act(order.orderId, 'refund', { amountCents: 500_000, idempotencyKey: 'key-first-1' });
    const response = await act(order.orderId, 'refund', { amountCents: 2_000_001, idempotencyKey: 'key-second-1' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: { code: 'REFUND_TOO_LARGE', message: `At most ${formatEuro(2_000_000)} can be refunded on this order.` },
    });
    expect((await adminOrder(order.orderId)).refundedCents).toBe(500_000);
  });

  it('refunds once for a double click (same idempotency key, concurrently) and once for two admins refunding everything at once', async () => {
    const order = await paidOrder(2_500_000);
    const clicks = await Promise.all(
      [1, 2, 3].map(() => act(order.orderId, 'refund', { amountCents: 300_000, idempotencyKey: 'double-click-1' })),
    );
    expect(clicks.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const after = await adminOrder(order.orderId);
    expect(after.refunds.map((r) => r.amountCents)).toEqual([300_000]);
    expect(await refundedAtStripe(order.chargeId)).toBe(300_000);

    const other = await createUserWithSession(harness.app, { roles: ['user', 'owner'] });
    const both = await Promise.all([
      act(order.orderId, 'refund', { amountCents: 2_200_000, idempotencyKey: 'admin-a-all' }),
      act(order.orderId, 'refund', { amountCents: 2_200_000, idempotencyKey: 'admin-b-all' }, other),
    ]);
    // The second finds nothing left, whether the first is in flight or done: always 409.
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().error.code).toBe('NOTHING_TO_REFUND');
    expect(await refundedAtStripe(order.chargeId)).toBe(2_500_000);
    expect(await adminOrder(order.orderId)).toMatchObject({ status: 'refunded', refundedCents: 2_500_000 });
  });

  it('refuses to refund an unpaid order (409) and validates the body (400)', async () => {
    const order = await openOrder();
    const response = await act(order.orderId, 'refund', { amountCents: 100, idempotencyKey: 'unpaid-key-1' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'INVALID_TRANSITION', message: 'The order is pending; it cannot be refunded.' });
    for (const body of [
      { amountCents: 0, idempotencyKey: 'abcdefgh' },
      { amountCents: 1.5, idempotencyKey: 'abcdefgh' },
      { amountCents: 100, idempotencyKey: 'short' },
      { amountCents: 100 },
    ]) {
      expect((await act(order.orderId, 'refund', body)).statusCode).toBe(400);
    }
  });
});

describe('a crash between the provider refunding and the shop recording it', () => {
  it("is healed by the provider's refund.created webhook, which names the shop's refund row", async () => {
    const order = await paidOrder(1_000_000);
    // What openRefund and the provider call leave behind when the process dies right after.
    const row = await harness.app.db
      .insertInto('order_refunds')
      .values({
        order_id: order.orderId,
        amount_cents: 200_000,
        reason: 'Crash test',
        idempotency_key: `refund:${order.orderId}:crash-1`,
        created_by_type: 'admin',
        created_by_id: admin.user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await adminOrder(order.orderId)).refundableCents).toBe(800_000);
    const refund = await harness.stripe.refunds.create(
      { payment_intent: order.intentId, amount: 200_000, metadata: { orderId: order.orderId, refundId: row.id } },
      { idempotencyKey: `boatshop-refund-${row.id}` },
    );
    await harness.webhookDelivered('refund.created', refund.id);
    await harness.webhookDelivered('charge.refunded', order.chargeId);
    const after = await adminOrder(order.orderId);
    expect(after).toMatchObject({ status: 'partially_refunded', refundedCents: 200_000, refundableCents: 800_000 });
    expect(after.refunds).toEqual([expect.objectContaining({ id: row.id, status: 'succeeded', providerReference: refund.id })]);
    expect(after.events.at(-1)).toMatchObject({
      toStatus: 'partially_refunded',
      actor: { type: 'admin', id: admin.user.id },
      amountCents: 200_000,
    });
  });
});

describe('POST /api/admin/orders/:id/cancel', () => {
  it('cancels a paid order by refunding it in full, once, however often it is pressed', async () => {
    const order = await paidOrder(1_000_000);
    const responses = await Promise.all([act(order.orderId, 'cancel', { reason: 'Out of stock' }), act(order.orderId, 'cancel', {})]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const after = await adminOrder(order.orderId);
    expect(after).toMatchObject({ status: 'cancelled', refundedCents: 1_000_000, allowedActions: [] });
    expect(after.events.at(-1)).toMatchObject({ fromStatus: 'paid', toStatus: 'cancelled', amountCents: 1_000_000 });
    expect(await refundedAtStripe(order.chargeId)).toBe(1_000_000);
  });

  it('cancels a pending order and its payment intent at the provider', async () => {
    const order = await openOrder();
    const response = await act(order.orderId, 'cancel', {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AdminOrder>()).toMatchObject({ status: 'cancelled', payments: [expect.objectContaining({ status: 'canceled' })] });
    expect((await harness.stripe.paymentIntents.retrieve(order.intentId)).status).toBe('canceled');
    // The provider's payment_intent.canceled confirms it and changes nothing more.
    await harness.webhookDelivered('payment_intent.canceled', order.intentId);
    expect((await adminOrder(order.orderId)).events.map((e) => e.toStatus)).toEqual(['cancelled']);
  });
});

/** The stand-in's event, fetched back from it and delivered again, freshly signed: a replay. */
async function replay(eventId: string) {
  const event = await harness.stripe.events.retrieve(eventId);
  const payload = JSON.stringify(event);
  const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  expect(response.statusCode).toBe(200);
}

describe('provider webhooks on orders', () => {
  it('applies each event once: replays of succeeded, refunded, dispute and canceled events change nothing', async () => {
    const order = await paidOrder(1_000_000);
    const dashboard = (path: string, form: Record<string, string>) =>
      fetch(`${harness.standinUrl}/_dashboard/${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_dev', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      }).then((r) => r.json() as Promise<{ id: string }>);
    await dashboard(`payment_intents/${order.intentId}/refund`, { amount: '100000' });
    const refunded = await harness.webhookDelivered('charge.refunded', order.chargeId);
    const dispute = await dashboard(`payment_intents/${order.intentId}/dispute`, {});
    const opened = await harness.webhookDelivered('charge.dispute.created', dispute.id);
    await dashboard(`disputes/${dispute.id}/close`, { status: 'won' });
    const closed = await harness.webhookDelivered('charge.dispute.closed', dispute.id);
    const succeeded = await harness.webhookDelivered('payment_intent.succeeded', order.intentId);
    const before = await adminOrder(order.orderId);
    expect(before).toMatchObject({ status: 'partially_refunded', refundedCents: 100_000 });

    for (const delivery of [succeeded, refunded, opened, closed]) await replay(delivery.eventId);
    expect(await adminOrder(order.orderId)).toEqual(before);

    const pending = await openOrder();
    await act(pending.orderId, 'cancel', {});
    const canceled = await harness.webhookDelivered('payment_intent.canceled', pending.intentId);
    const cancelledBefore = await adminOrder(pending.orderId);
    await replay(canceled.eventId);
    expect(await adminOrder(pending.orderId)).toEqual(cancelledBefore);
  });

  it('records a refund made in the dashboard, not by the shop, and replays change nothing', async () => {
    const order = await paidOrder(1_000_000);
    const response = await fetch(`${harness.standinUrl}/_dashboard/payment_intents/${order.intentId}/refund`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_dev', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ amount: '250000' }),
    });
    expect(response.status).toBe(200);
    await harness.webhookDelivered('charge.refunded', order.chargeId);
    const after = await adminOrder(order.orderId);
    expect(after).toMatchObject({ status: 'partially_refunded', refundedCents: 250_000, refundableCents: 750_000 });
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountCents: 250_000, createdBy: { type: 'provider', id: null, name: null } }),
    ]);
    expect(after.events.at(-1)).toMatchObject({ toStatus: 'partially_refunded', actor: { type: 'provider' }, amountCents: 250_000 });

    const shopperView = await harness.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}`, headers: shopper.headers });
    expect(shopperView.json()).toMatchObject({ status: 'partially_refunded', refundedCents: 250_000 });
    expect(shopperView.json().timeline.at(-1)).toEqual({
      status: 'partially_refunded',
      at: expect.any(String),
      amountCents: 250_000,
      note: null,
    });
  });

  it('moves an order to disputed and back when the dispute is won; a lost one refunds it', async () => {
    const won = await paidOrder(1_000_000);
    await act(won.orderId, 'ship', { trackingNumber: 'TRK-1' });
    const dashboard = (path: string, form: Record<string, string>) =>
      fetch(`${harness.standinUrl}/_dashboard/${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_dev', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      }).then((r) => r.json() as Promise<{ id: string }>);

    const dispute = await dashboard(`payment_intents/${won.intentId}/dispute`, { reason: 'fraudulent' });
    const delivered = await harness.webhookDelivered('charge.dispute.created', dispute.id);
    expect(delivered.statusCode).toBe(200);
    expect(await adminOrder(won.orderId)).toMatchObject({ status: 'disputed', allowedActions: [] });
    await dashboard(`disputes/${dispute.id}/close`, { status: 'won' });
    await harness.webhookDelivered('charge.dispute.closed', dispute.id);
    expect((await adminOrder(won.orderId)).status).toBe('shipped');
    // Back where it was: the shopper was told of the shipment once, not again.
    const mails = await harness.app.db
      .selectFrom('outbox')
      .select(sql<string>`payload->>'template'`.as('template'))
      .where(sql<string>`payload->>'orderId'`, '=', won.orderId)
      .execute();
    expect(mails.map((m) => m.template).sort()).toEqual(['order_confirmation', 'order_shipped']);

    const lost = await paidOrder(800_000);
    const second = await dashboard(`payment_intents/${lost.intentId}/dispute`, {});
    await harness.webhookDelivered('charge.dispute.created', second.id);
    await dashboard(`disputes/${second.id}/close`, { status: 'lost' });
    await harness.webhookDelivered('charge.dispute.closed', second.id);
    expect(await adminOrder(lost.orderId)).toMatchObject({ status: 'refunded', refundedCents: 800_000 });
  });
});
