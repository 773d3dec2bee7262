import { startStripeStandin } from '@boatshop/dev-services';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { DEV_STRIPE, type Config, type PaymentsConfig } from '../../../src/config.js';
import type { CreatePaymentBody } from '@boatshop/contract';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.js';

// The checkout under test talks to the real `stripe` SDK, pointed at the dev-services Stripe
// stand-in started in-process on a free port. The stand-in's signed webhooks reach the app
// through a small relay that hands each delivery, byte for byte, to `app.inject`.

export interface Delivery {
  eventId: string;
  type: string;
  intentId: string;
  statusCode: number;
}

export interface PaymentsHarness {
  app: TestApp;
  standinUrl: string;
  /** the SDK with the secret key, as a second party looking at the stand-in's state */
  stripe: Stripe;
  /** resolves once the stand-in's webhook of `type` about `intentId` has been answered */
  webhookDelivered(type: string, intentId: string): Promise<Delivery>;
  /** while false, deliveries are refused (HTTP 503), as if the API were unreachable */
  setWebhooksReachable(reachable: boolean): void;
  /** every delivery the stand-in attempted, byte for byte, reachable or not: to replay or reorder */
  captured: CapturedEvent[];
  /** hands one captured delivery to the API again (its signature stays valid for minutes) */
  redeliver(event: CapturedEvent): Promise<number>;
  /** resolves once every delivery the stand-in has under way was answered, and those they set off */
  webhooksSettled(): Promise<void>;
  close(): Promise<void>;
}

export interface CapturedEvent {
  body: Buffer;
  signature: string;
  contentType: string;
  type: string;
  objectId: string;
  /** the API answered it 200 (at first delivery or a later one) */
  delivered: boolean;
}

export function paymentsConfig(standinUrl: string): PaymentsConfig {
  return {
    provider: 'local',
    ...DEV_STRIPE,
    apiBase: standinUrl,
    browserApiBase: standinUrl,
  };
}

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `overrides`: more of the app's configuration, e.g. a database reached through a fault proxy. */
export async function startPaymentsHarness(overrides: Partial<Config> = {}): Promise<PaymentsHarness> {
  let app: TestApp | undefined;
  let reachable = true;
  const deliveries: Delivery[] = [];
  const waiters: { type: string; intentId: string; resolve: (delivery: Delivery) => void }[] = [];
  const captured: CapturedEvent[] = [];

  const relay = http.createServer(async (request, response) => {
    const body = await readBody(request);
    let capture: CapturedEvent | undefined;
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { type: string; data: { object: { id: string } } };
      capture = {
        body,
        signature: String(request.headers['stripe-signature'] ?? ''),
        contentType: String(request.headers['content-type'] ?? 'application/json'),
        type: parsed.type,
        objectId: parsed.data.object.id,
        delivered: false,
      };
      captured.push(capture);
    } catch {
      // not an event: delivered as it is below
    }
    if (!app || !reachable) {
      response.writeHead(503).end();
      return;
    }
    const injected = await app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: {
        'content-type': request.headers['content-type'] ?? 'application/json',
        'stripe-signature': request.headers['stripe-signature'] ?? '',
      },
      payload: body,
    });
    if (capture && injected.statusCode === 200) capture.delivered = true;
    const event = JSON.parse(body.toString('utf8')) as { id: string; type: string; data: { object: { id: string } } };
    const delivery = { eventId: event.id, type: event.type, intentId: event.data.object.id, statusCode: injected.statusCode };
    deliveries.push(delivery);
    for (const waiter of waiters.filter((w) => w.type === delivery.type && w.intentId === delivery.intentId)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(delivery);
    }
    response.writeHead(injected.statusCode, { 'content-type': 'application/json' }).end(injected.body);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayPort = (relay.address() as AddressInfo).port;

  const standin = await startStripeStandin({
    port: 0,
    webhookUrl: `http://127.0.0.1:${relayPort}/`,
    webhookSecret: DEV_STRIPE.webhookSecret,
    // A refused delivery stays refused: tests decide which path (webhook or confirm) pays.
    webhookRetryDelaysMs: [],
    log: () => undefined,
  });
  app = await buildTestApp({ ...overrides, payments: paymentsConfig(standin.url) });
  const base = new URL(standin.url);

  return {
    app,
    standinUrl: standin.url,
    stripe: new Stripe(DEV_STRIPE.secretKey, { host: base.hostname, port: Number(base.port), protocol: 'http' }),
    webhookDelivered(type, intentId) {
      const done = deliveries.find((d) => d.type === type && d.intentId === intentId);
      if (done) return Promise.resolve(done);
      return new Promise((resolve) => waiters.push({ type, intentId, resolve }));
    },
    setWebhooksReachable(value) {
      reachable = value;
    },
    captured,
    async redeliver(event) {
      const injected = await app!.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': event.contentType, 'stripe-signature': event.signature },
        payload: event.body,
      });
      if (injected.statusCode === 200) event.delivered = true;
      return injected.statusCode;
    },
    webhooksSettled: () => standin.webhooksSettled(),
    async close() {
      await standin.close();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await app?.close();
    },
  };
}

/** A boat in the catalogue; `stock` units on hand when given (null: built to order). */
export async function insertProduct(
  app: TestApp,
  product: { name?: string; priceCents: number; stock?: number | null; category?: 'yachts' | 'sailing-boats' },
): Promise<string> {
  const row = await app.db
    .insertInto('products')
    .values({
      name: product.name ?? `Boat ${Math.random().toString(36).slice(2, 8)}`,
      thumbnail_url: '/api/images/boat.svg',
      price_cents: product.priceCents,
      category: product.category ?? 'sailing-boats',
      created_by: null,
      ...(product.stock === undefined ? {} : { stock_on_hand: product.stock }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const SHIPPING = {
  name: 'Sandy Shopper',
  address: { line1: '1 Harbour Road', city: 'Cork', state: 'Cork', postal_code: 'T12 X2Y3', country: 'IE' },
};
export const BILLING = {
  name: 'Sandy Card-Owner',
  address: { line1: '2 Quay Street', city: 'Galway', state: 'Galway', postal_code: 'H91 A2B3', country: 'IE' },
};

export function createBody(items: CreatePaymentBody['items'], expectedTotalCents: number): CreatePaymentBody {
  return { items, expectedTotalCents, shipping: SHIPPING, billing: BILLING };
}

export interface BrowserConfirmation {
  status: number;
  body: { status?: string; error?: { message: string; code?: string; decline_code?: string } };
}

/**
 * What the shop's local card form does in the browser, as Stripe.js does against Stripe:
 * confirm the intent with the publishable key, the client secret and the raw card details.
 */
export async function confirmCardLikeTheBrowser(
  standinUrl: string,
  clientSecret: string,
  cardNumber: string,
): Promise<BrowserConfirmation> {
  const intentId = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
  const form = new URLSearchParams({
    key: DEV_STRIPE.publishableKey,
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': cardNumber,
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': String(new Date().getUTCFullYear() + 3),
    'payment_method_data[card][cvc]': '123',
    'payment_method_data[billing_details][name]': BILLING.name,
  });
  const response = await fetch(`${standinUrl}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as BrowserConfirmation['body'] };
}

export function intentIdOf(clientSecret: string): string {
  return clientSecret.slice(0, clientSecret.indexOf('_secret_'));
}
