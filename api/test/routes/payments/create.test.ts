import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_STRIPE } from '../../../src/config.js';
import { MAX_PAYMENT_CENTS } from '@boatshop/contract';
import { buildTestApp, resetDatabase } from '../../helpers/build-test-app.js';
import { cookieHeader, createUserWithSession, csrfCredentials } from '../../helpers/users.js';
import {
  BILLING,
  createBody,
  insertProduct,
  intentIdOf,
  paymentsConfig,
  SHIPPING,
  startPaymentsHarness,
  type PaymentsHarness,
} from './payments-test-kit.js';

let harness: PaymentsHarness;
beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(() => resetDatabase(harness.app));
afterAll(() => harness?.close());

describe('GET /api/payments/config', () => {
  it('tells the browser to use the local card form against the stand-in', async () => {
    const response = await harness.app.inject({ url: '/api/payments/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      provider: 'local',
      publishableKey: DEV_STRIPE.publishableKey,
      localApiBase: harness.standinUrl,
    });
  });

  it('names Stripe Elements and no stand-in when real keys are configured', async () => {
    const app = await buildTestApp({
      payments: {
        provider: 'stripe',
        secretKey: 'sk_test_realaccount',
        publishableKey: 'pk_test_realaccount',
        webhookSecret: 'whsec_real',
        apiBase: null,
        browserApiBase: null,
      },
    });
    try {
      const response = await app.inject({ url: '/api/payments/config' });
      expect(response.json()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_realaccount' });
    } finally {
      await app.close();
    }
  });
});

describe('POST /api/payments/create', () => {
  it('refuses a visitor without a session', async () => {
    const productId = await insertProduct(harness.app, { priceCents: 10_000 });
    // A visitor of the shop: CSRF token in order, but nobody signed in.
    const csrf = await csrfCredentials(harness.app);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers: { cookie: cookieHeader(csrf.cookies), ...csrf.headers },
      payload: createBody([{ productId, quantity: 1 }], 10_000),
    });
    expect(response.statusCode).toBe(401);
  });

  it('prices the cart from the database and opens a pending order with its snapshot and a EUR payment intent', async () => {
    const { user, headers } = await createUserWithSession(harness.app);
    const sloop = await insertProduct(harness.app, { name: 'Sloop', priceCents: 1_250_050 });
    const dinghy = await insertProduct(harness.app, { name: 'Dinghy', priceCents: 99_999 });

    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: createBody(
        [
          { productId: sloop, quantity: 2 },
          { productId: dinghy, quantity: 1 },
        ],
        2 * 1_250_050 + 99_999,
      ),
    });

    expect(response.statusCode).toBe(201);
    const { orderId, clientSecret, totalCents } = response.json<{ orderId: string; clientSecret: string; totalCents: number }>();
    expect(totalCents).toBe(2_600_099);

    const order = await harness.app.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      user_id: user.id,
      status: 'pending',
      total_cents: 2_600_099,
      currency: 'eur',
      payment_reference: intentIdOf(clientSecret),
      paid_at: null,
      shipping: SHIPPING,
      billing: BILLING,
    });
    const items = await harness.app.db
      .selectFrom('order_items')
      .select(['product_id', 'name', 'unit_price_cents', 'quantity'])
      .where('order_id', '=', orderId)
      .orderBy('name')
      .execute();
    expect(items).toEqual([
      { product_id: dinghy, name: 'Dinghy', unit_price_cents: 99_999, quantity: 1 },
      { product_id: sloop, name: 'Sloop', unit_price_cents: 1_250_050, quantity: 2 },
    ]);

    const intent = await harness.stripe.paymentIntents.retrieve(intentIdOf(clientSecret));
    expect(intent).toMatchObject({ amount: 2_600_099, currency: 'eur', status: 'requires_payment_method', metadata: { orderId } });
  });

  it('adds up the same product sent on two lines', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: 30_000 });
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: createBody(
        [
          { productId, quantity: 1 },
          { productId, quantity: 2 },
        ],
        90_000,
      ),
    });
    expect(response.statusCode).toBe(201);
    const items = await harness.app.db.selectFrom('order_items').select('quantity').execute();
    expect(items).toEqual([{ quantity: 3 }]);
  });

  it('ignores a price the browser slips into a cart line: the amount comes from the database', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: 500_000 });
    const body = createBody([{ productId, quantity: 1 }], 500_000);
    const tampered = { ...body, items: [{ productId, quantity: 1, priceCents: 1 }] };

    const response = await harness.app.inject({ method: 'POST', url: '/api/payments/create', headers, payload: tampered });

    expect(response.statusCode).toBe(201);
    const intent = await harness.stripe.paymentIntents.retrieve(intentIdOf(response.json<{ clientSecret: string }>().clientSecret));
    expect(intent.amount).toBe(500_000);
  });

  it('answers 409 PRICES_CHANGED with the server total when the browser expected another, and keeps no order', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: 1_500_000 });

    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      // The cart still holds the old price of 10.000,00 €.
      payload: createBody([{ productId, quantity: 2 }], 2_000_000),
    });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'PRICES_CHANGED', message: 'Prices changed: the new total is 30.000,00\u00a0€.', totalCents: 3_000_000 },
    });
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toEqual([]);
    expect(await harness.app.db.selectFrom('order_items').select('id').execute()).toEqual([]);
  });

  it('answers 409 with the total of what is still sold when a product has left the catalogue', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const kept = await insertProduct(harness.app, { priceCents: 70_000 });
    const gone = '00000000-0000-4000-8000-000000000000';

    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: createBody(
        [
          { productId: kept, quantity: 1 },
          { productId: gone, quantity: 1 },
        ],
        170_000,
      ),
    });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: { code: 'PRICES_CHANGED', totalCents: 70_000, details: ['A product in your cart is no longer sold.'] },
    });
  });

  it('refuses an amount above the card limit with 422 AMOUNT_TOO_LARGE before any payment intent exists', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const superyacht = await insertProduct(harness.app, { priceCents: 60_000_000 });

    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: createBody([{ productId: superyacht, quantity: 2 }], 120_000_000),
    });

    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        code: 'AMOUNT_TOO_LARGE',
        message:
          'Card payments are limited to 999.999,99\u00a0€; this order comes to 1.200.000,00\u00a0€. ' +
          'Reserve it with a deposit of 120.000,00\u00a0€ by card and pay the balance by bank transfer. Nothing was charged.',
        totalCents: 120_000_000,
      },
    });
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });

  it('accepts exactly the card limit', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: MAX_PAYMENT_CENTS });
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: createBody([{ productId, quantity: 1 }], MAX_PAYMENT_CENTS),
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses a total below 1 EUR with 422 AMOUNT_TOO_SMALL', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: 99 });
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: createBody([{ productId, quantity: 1 }], 99),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'AMOUNT_TOO_SMALL' } });
  });

  it('refuses an address holding a lone UTF-16 surrogate with 400 (jsonb cannot store it)', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: 10_000 });
    const body = createBody([{ productId, quantity: 1 }], 10_000);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        ...body,
        shipping: { ...body.shipping, address: { ...body.shipping.address, line1: '1 Harbour Road \ud83d' } },
      }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('lone UTF-16 surrogate');
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });

  it('lists every missing or blank address field', async () => {
    const { headers } = await createUserWithSession(harness.app);
    const productId = await insertProduct(harness.app, { priceCents: 10_000 });
    const body = createBody([{ productId, quantity: 1 }], 10_000);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers,
      payload: {
        ...body,
        shipping: { ...body.shipping, name: '   ' },
        billing: { name: 'Card Owner', address: { ...body.billing.address, country: 'Ireland', city: undefined } },
      },
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json<{ error: { code: string; details: string[] } }>();
    expect(error.code).toBe('VALIDATION');
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.stringContaining('body.shipping.name'),
        expect.stringContaining('body.billing.address.country'),
        'body.billing.address.city is required',
      ]),
    );
  });

  it('marks the order failed and answers 502 when the payment service does not answer', async () => {
    const unreachable = await buildTestApp({ payments: paymentsConfig('http://127.0.0.1:9') });
    try {
      const { headers } = await createUserWithSession(unreachable);
      const productId = await insertProduct(unreachable, { priceCents: 10_000 });
      const response = await unreachable.inject({
        method: 'POST',
        url: '/api/payments/create',
        headers,
        payload: createBody([{ productId, quantity: 1 }], 10_000),
      });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ error: { code: 'PAYMENT_PROVIDER_UNAVAILABLE' } });
      expect(await unreachable.db.selectFrom('orders').select(['status', 'payment_reference']).execute()).toEqual([
        { status: 'failed', payment_reference: null },
      ]);
    } finally {
      await unreachable.close();
    }
  });
});
