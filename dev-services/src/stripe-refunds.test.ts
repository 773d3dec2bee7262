import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeStandin, type RunningStripeStandin } from './stripe-standin.js';

const WEBHOOK_SECRET = 'whsec_test_refunds';
const SECRET_KEY = 'sk_test_refunds';

const events: Stripe.Event[] = [];
let receiver: Server;
let standin: RunningStripeStandin;
let stripe: Stripe;

async function waitForEvent(type: string, objectId: string): Promise<Stripe.Event> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = events.find((event) => event.type === type && (event.data.object as { id: string }).id === objectId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${type} for ${objectId}; got ${events.map((e) => e.type).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A succeeded payment, confirmed as the server could with a test payment method. */
async function paidIntent(amount = 100_000): Promise<Stripe.PaymentIntent> {
  const intent = await stripe.paymentIntents.create({
    amount,
    currency: 'eur',
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
  });
  return stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
}

function dashboard(path: string, form: Record<string, string> = {}) {
  return fetch(`${standin.url}/_dashboard/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      // Verified as the API does, with the SDK's own check.
      events.push(stripe.webhooks.constructEvent(body, String(request.headers['stripe-signature']), WEBHOOK_SECRET));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  standin = await startStripeStandin({
    port: 0,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
    webhookSecret: WEBHOOK_SECRET,
    webhookRetryDelaysMs: [],
    log: () => {},
  });
  const { hostname, port } = new URL(standin.url);
  stripe = new Stripe(SECRET_KEY, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await standin.close();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(() => {
  events.length = 0;
});

describe('POST /v1/refunds', () => {
  it('refunds part of a payment and sends charge.refunded with the refunded total', async () => {
    const intent = await paidIntent(100_000);
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 30_000, metadata: { orderId: 'o-1' } });
    expect(refund).toMatchObject({
      object: 'refund',
      amount: 30_000,
      status: 'succeeded',
      payment_intent: intent.id,
      charge: intent.latest_charge,
    });

    const event = await waitForEvent('charge.refunded', intent.latest_charge as string);
    expect(event.data.object).toMatchObject({
      object: 'charge',
      amount: 100_000,
      amount_refunded: 30_000,
      refunded: false,
      payment_intent: intent.id,
    });

    await stripe.refunds.create({ payment_intent: intent.id });
    await expect
      .poll(() => events.filter((e) => e.type === 'charge.refunded').map((e) => (e.data.object as Stripe.Charge).amount_refunded))
      .toEqual([30_000, 100_000]);
    expect((await stripe.refunds.retrieve(refund.id)).amount).toBe(30_000);
  });

  it('never refunds more than is left, and says so as Stripe does', async () => {
    const intent = await paidIntent(50_000);
    await stripe.refunds.create({ payment_intent: intent.id, amount: 40_000 });
    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 20_000 })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'amount_too_large',
    });
    await stripe.refunds.create({ payment_intent: intent.id });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({ code: 'charge_already_refunded' });
  });

  it('refunds once for one idempotency key, however often and however concurrently it is sent', async () => {
    const intent = await paidIntent(80_000);
    const refunds = await Promise.all(
      Array.from({ length: 5 }, () =>
        stripe.refunds.create({ payment_intent: intent.id, amount: 10_000 }, { idempotencyKey: 'refund-key-1' }),
      ),
    );
    expect(new Set(refunds.map((r) => r.id)).size).toBe(1);
    await waitForEvent('charge.refunded', intent.latest_charge as string);
    await expect(
      stripe.refunds.create({ payment_intent: intent.id, amount: 20_000 }, { idempotencyKey: 'refund-key-1' }),
    ).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    });
    expect(events.filter((e) => e.type === 'charge.refunded')).toHaveLength(1);
  });

  it('refuses to refund an intent that was never paid', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 5_000, currency: 'eur' });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({ code: 'charge_not_refundable' });
  });

  it('takes a refund made "in the dashboard", not by the shop, and reports it the same way', async () => {
    const intent = await paidIntent(60_000);
    const response = await dashboard(`payment_intents/${intent.id}/refund`, { amount: '15000' });
    expect(response.status).toBe(200);
    const event = await waitForEvent('charge.refunded', intent.latest_charge as string);
    expect((event.data.object as Stripe.Charge).amount_refunded).toBe(15_000);
  });
});

describe('POST /v1/payment_intents/:id/cancel', () => {
  it('cancels an unpaid intent with payment_intent.canceled, and refuses a paid one', async () => {
    const open = await stripe.paymentIntents.create({ amount: 5_000, currency: 'eur' });
    const canceled = await stripe.paymentIntents.cancel(open.id, { cancellation_reason: 'abandoned' });
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect((await waitForEvent('payment_intent.canceled', open.id)).data.object).toMatchObject({ status: 'canceled' });
    await expect(stripe.paymentIntents.confirm(open.id, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });

    const paid = await paidIntent();
    await expect(stripe.paymentIntents.cancel(paid.id)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
  });
});

describe('disputes (the dashboard)', () => {
  it('opens a dispute with charge.dispute.created and closes it with charge.dispute.closed', async () => {
    const intent = await paidIntent(70_000);
    const opened = await dashboard(`payment_intents/${intent.id}/dispute`, { reason: 'product_not_received' });
    expect(opened.status).toBe(200);
    const dispute = (await opened.json()) as Stripe.Dispute;
    expect(dispute).toMatchObject({
      object: 'dispute',
      amount: 70_000,
      payment_intent: intent.id,
      status: 'needs_response',
      reason: 'product_not_received',
    });
    await waitForEvent('charge.dispute.created', dispute.id);

    expect((await dashboard(`disputes/${dispute.id}/close`, { status: 'lost' })).status).toBe(200);
    expect((await waitForEvent('charge.dispute.closed', dispute.id)).data.object).toMatchObject({ status: 'lost' });
    expect((await dashboard(`disputes/${dispute.id}/close`, { status: 'won' })).status).toBe(400);
  });
});
