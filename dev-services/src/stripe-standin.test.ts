import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandin, type RunningStripeStandin } from './stripe-standin.js';

const WEBHOOK_SECRET = 'whsec_test_standin';

interface Delivery {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A webhook endpoint that records raw deliveries and answers with the next queued status. */
class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  readonly statuses: number[] = [];
  private waiters: (() => void)[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(this.statuses.shift() ?? 200).end();
      for (const wake of this.waiters.splice(0)) wake();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/payments/webhook`;
  }

  async waitFor(predicate: (deliveries: Delivery[]) => boolean, timeoutMs = 10_000): Promise<Delivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.deliveries)) {
      if (Date.now() > deadline) throw new Error(`webhook deliveries did not arrive: ${this.deliveries.length} so far`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.deliveries;
  }

  reset(): void {
    this.deliveries.length = 0;
    this.statuses.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new WebhookReceiver();
let standin: RunningStripeStandin;
let stripe: Stripe;

function eventsOf(deliveries: Delivery[], type: string, intentId: string): Stripe.Event[] {
  return deliveries
    .map((delivery) => JSON.parse(delivery.body) as Stripe.Event)
    .filter((event) => event.type === type && (event.data.object as { id?: string }).id === intentId);
}

/** What a browser card form sends, as Stripe.js does: publishable key and client secret in the body. */
async function confirmFromBrowser(
  clientSecret: string,
  card: { number: string; exp_month?: string; exp_year?: string; cvc?: string },
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const intentId = clientSecret.split('_secret_')[0];
  const form = new URLSearchParams({
    key: 'pk_test_browser',
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': card.number,
    'payment_method_data[card][exp_month]': card.exp_month ?? '12',
    'payment_method_data[card][exp_year]': card.exp_year ?? String(new Date().getFullYear() + 2),
    'payment_method_data[card][cvc]': card.cvc ?? '123',
    'payment_method_data[billing_details][name]': 'Grace Sailor',
    'payment_method_data[billing_details][address][line1]': '1 Harbour Road',
    'payment_method_data[billing_details][address][city]': 'Cork',
    'payment_method_data[billing_details][address][postal_code]': 'T12 X123',
    'payment_method_data[billing_details][address][country]': 'IE',
  });
  const response = await fetch(`${standin.url}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

function createIntent(amount = 125_000, options?: Stripe.RequestOptions): Promise<Stripe.Response<Stripe.PaymentIntent>> {
  return stripe.paymentIntents.create(
    {
      amount,
      currency: 'eur',
      metadata: { orderId: 'order-1' },
      // As the API asks: cards only, nothing that would redirect the shopper away.
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    },
    options,
  );
}

beforeAll(async () => {
  const webhookUrl = await receiver.start();
  standin = await startStripeStandin({
    port: 0,
    webhookUrl,
    webhookSecret: WEBHOOK_SECRET,
    webhookRetryDelaysMs: [50, 100],
    log: () => {},
  });
  const { hostname, port } = new URL(standin.url);
  stripe = new Stripe('sk_test_standin', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await standin.close();
  await receiver.close();
});

afterEach(() => receiver.reset());

describe('POST /v1/payment_intents', () => {
  it('creates a payment intent awaiting a payment method, with a client secret for the browser', async () => {
    const intent = await createIntent();

    expect(intent).toMatchObject({
      object: 'payment_intent',
      amount: 125_000,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: { orderId: 'order-1' },
      livemode: false,
      latest_charge: null,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    });
    expect(intent.id).toMatch(/^pi_\w+$/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`));
  });

  it('returns the same payment intent when the same idempotency key repeats the same request', async () => {
    const first = await createIntent(5_000, { idempotencyKey: 'order-42-attempt-1' });
    const second = await createIntent(5_000, { idempotencyKey: 'order-42-attempt-1' });
    const third = await createIntent(5_000, { idempotencyKey: 'order-42-attempt-2' });

    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(third.id).not.toBe(first.id);
  });

  it('refuses to reuse an idempotency key with different parameters', async () => {
    await createIntent(5_000, { idempotencyKey: 'order-43' });

    await expect(createIntent(6_000, { idempotencyKey: 'order-43' })).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
      statusCode: 400,
    });
  });

  it("rejects an amount above Stripe's per-payment limit", async () => {
    await expect(createIntent(100_000_000)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'amount_too_large',
      param: 'amount',
    });
    await expect(createIntent(99_999_999)).resolves.toMatchObject({ amount: 99_999_999 });
  });

  it('rejects parameters Stripe does not know, so mistakes show up locally', async () => {
    await expect(
      stripe.paymentIntents.create({ amount: 1_000, currency: 'eur', amount_cents: 1_000 } as Stripe.PaymentIntentCreateParams),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'amount_cents' });
  });

  it('answers a wrong or missing key with the 401 Stripe sends', async () => {
    const { hostname, port } = new URL(standin.url);
    const options = { host: hostname, port: Number(port), protocol: 'http' as const, maxNetworkRetries: 0 };

    await expect(
      new Stripe('sk_live_realkey1234', options).paymentIntents.create({ amount: 1_000, currency: 'eur' }),
    ).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401, message: 'Invalid API Key provided: sk_live_****1234' });
    await expect(new Stripe('pk_test_browser', options).paymentIntents.create({ amount: 1_000, currency: 'eur' })).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });
    const anonymous = await fetch(`${standin.url}/v1/payment_intents`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('API key') } });
  });
});

describe('GET /v1/payment_intents/:id', () => {
  it('retrieves a payment intent, and 404s an unknown one', async () => {
    const created = await createIntent(7_500);

    await expect(stripe.paymentIntents.retrieve(created.id)).resolves.toMatchObject({ id: created.id, amount: 7_500 });
    await expect(stripe.paymentIntents.retrieve('pi_doesnotexist')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('lets a browser with the publishable key read it only with the client secret', async () => {
    const created = await createIntent();
    const url = `${standin.url}/v1/payment_intents/${created.id}?key=pk_test_browser`;

    const withSecret = await fetch(`${url}&client_secret=${created.client_secret}`);
    const withoutSecret = await fetch(url);

    expect(withSecret.status).toBe(200);
    expect(await withSecret.json()).toMatchObject({ id: created.id, status: 'requires_payment_method' });
    expect(withoutSecret.status).toBe(400);
  });
});

describe('POST /v1/payment_intents/:id/confirm', () => {
  it('charges 4242 4242 4242 4242 from the browser and sends a signed payment_intent.succeeded', async () => {
    const created = await createIntent();

    const { status, body, headers } = await confirmFromBrowser(created.client_secret!, { number: '4242424242424242' });

    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(body).toMatchObject({ id: created.id, status: 'succeeded', amount_received: 125_000 });
    expect(body.latest_charge).toMatch(/^ch_\w+$/);

    const [delivery] = await receiver.waitFor((all) => eventsOf(all, 'payment_intent.succeeded', created.id).length > 0);
    const event = stripe.webhooks.constructEvent(delivery!.body, delivery!.headers['stripe-signature'] as string, WEBHOOK_SECRET);
    expect(event).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', livemode: false });
    expect(event.id).toMatch(/^evt_\w+$/);
    expect(event.data.object).toMatchObject({ id: created.id, status: 'succeeded', metadata: { orderId: 'order-1' } });
    expect(() =>
      stripe.webhooks.constructEvent(delivery!.body, delivery!.headers['stripe-signature'] as string, 'whsec_someone_else'),
    ).toThrow(/signature/i);

    await expect(stripe.paymentIntents.retrieve(created.id)).resolves.toMatchObject({ status: 'succeeded' });
    await expect(stripe.events.retrieve(event.id)).resolves.toMatchObject({ id: event.id, type: 'payment_intent.succeeded' });
  });

  it('confirms server-side with a test payment method', async () => {
    const created = await createIntent();

    const confirmed = await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });

    expect(confirmed).toMatchObject({ status: 'succeeded', amount_received: 125_000 });
    expect(confirmed.payment_method).toMatch(/^pm_\w+$/);
  });

  it('declines 4000 0000 0000 0002 with card_declined and returns the intent to requires_payment_method', async () => {
    const created = await createIntent();

    const { status, body } = await confirmFromBrowser(created.client_secret!, { number: '4000000000000002' });

    expect(status).toBe(402);
    expect(body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
      payment_intent: { id: created.id, status: 'requires_payment_method' },
    });
    const intent = await stripe.paymentIntents.retrieve(created.id);
    expect(intent.status).toBe('requires_payment_method');
    expect(intent.last_payment_error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });

    const deliveries = await receiver.waitFor((all) => eventsOf(all, 'payment_intent.payment_failed', created.id).length > 0);
    const failed = deliveries.find((delivery) => delivery.body.includes(created.id))!;
    expect(stripe.webhooks.constructEvent(failed.body, failed.headers['stripe-signature'] as string, WEBHOOK_SECRET).type).toBe(
      'payment_intent.payment_failed',
    );
  });

  it('raises a StripeCardError in the SDK for insufficient funds, and a later good card still pays', async () => {
    const created = await createIntent();

    await expect(
      stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_chargeDeclinedInsufficientFunds' }),
    ).rejects.toMatchObject({
      type: 'StripeCardError',
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    const { body } = await confirmFromBrowser(created.client_secret!, { number: '4000000000009995' });
    expect(body.error).toMatchObject({ decline_code: 'insufficient_funds' });

    const retried = await confirmFromBrowser(created.client_secret!, { number: '4242 4242 4242 4242' });
    expect(retried.body).toMatchObject({ status: 'succeeded', last_payment_error: null });
  });

  it('rejects an expired card and a mistyped number before charging', async () => {
    const created = await createIntent();
    const lastYear = String(new Date().getFullYear() - 1);

    const expired = await confirmFromBrowser(created.client_secret!, { number: '4242424242424242', exp_year: lastYear });
    const mistyped = await confirmFromBrowser(created.client_secret!, { number: '4242424242424241' });

    expect(expired.status).toBe(402);
    expect(expired.body.error).toMatchObject({ type: 'card_error', code: 'expired_card', message: 'Your card has expired.' });
    expect(mistyped.status).toBe(402);
    expect(mistyped.body.error).toMatchObject({ type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' });
    await expect(stripe.paymentIntents.retrieve(created.id)).resolves.toMatchObject({ status: 'requires_payment_method' });
  });

  it('refuses a browser confirmation with the wrong client secret, and a second confirmation', async () => {
    const created = await createIntent();
    const other = await createIntent();

    const wrongSecret = await confirmFromBrowser(`${created.id}_secret_${other.client_secret!.split('_secret_')[1]}`, {
      number: '4242424242424242',
    });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body.error).toMatchObject({ param: 'client_secret' });

    await confirmFromBrowser(created.client_secret!, { number: '4242424242424242' });
    const again = await confirmFromBrowser(created.client_secret!, { number: '4242424242424242' });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'payment_intent_unexpected_state' });
  });

  it('answers the CORS preflight a browser sends before confirming', async () => {
    const response = await fetch(`${standin.url}/v1/payment_intents/pi_any/confirm`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('webhook delivery', () => {
  it('tells when every delivery under way has been answered, so a test need not sleep', async () => {
    const created = await createIntent();
    await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });

    await standin.webhooksSettled();
    expect(eventsOf(receiver.deliveries, 'payment_intent.succeeded', created.id)).toHaveLength(1);
  });

  it('retries an event the endpoint did not accept, with a fresh valid signature', async () => {
    receiver.statuses.push(500, 503);
    const created = await createIntent();

    await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });

    const deliveries = await receiver.waitFor((all) => eventsOf(all, 'payment_intent.succeeded', created.id).length === 3);
    const ids = new Set(deliveries.map((delivery) => (JSON.parse(delivery.body) as Stripe.Event).id));
    expect(ids.size).toBe(1);
    for (const delivery of deliveries) {
      expect(() =>
        stripe.webhooks.constructEvent(delivery.body, delivery.headers['stripe-signature'] as string, WEBHOOK_SECRET),
      ).not.toThrow();
    }
  });
});
