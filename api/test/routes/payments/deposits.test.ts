import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, isValidCreditorReference } from '../../../src/features/deposits/deposit-rules.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { cookieHeader, createUserWithSession, csrfCredentials, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, createBody, intentIdOf, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';

// Deposit and balance: above the card limit (or for a deposit category) the shopper
// reserves the boat with a deposit paid by card; the order is `reserved`, the boat stays held,
// and the order page shows what to transfer, where to and by when.

const VISA = '4242424242424242';
const YACHT_CENTS = 289_000_000; // 2.890.000,00 €
const DEPOSIT_CENTS = 28_900_000; // 289.000,00 €

let harness: PaymentsHarness;
beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(() => resetDatabase(harness.app));
afterAll(() => harness?.close());

async function insertBoat(options: { name?: string; priceCents: number; category?: 'yachts' | 'sailing-boats'; stock?: number | null }) {
  const row = await harness.app.db
    .insertInto('products')
    .values({
      name: options.name ?? 'Seahaven 58',
      thumbnail_url: '/api/images/boat.svg',
      price_cents: options.priceCents,
      category: options.category ?? 'yachts',
      created_by: null,
      stock_on_hand: options.stock ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function quote(shopper: UserWithSession | null, items: { productId: string; quantity: number }[]) {
  let headers = shopper?.headers;
  if (!headers) {
    const visitor = await csrfCredentials(harness.app);
    headers = { cookie: cookieHeader(visitor.cookies), ...visitor.headers };
  }
  return harness.app.inject({ method: 'POST', url: '/api/payments/quote', headers, payload: { items } });
}

function create(shopper: UserWithSession, productId: string, totalCents: number, mode?: 'full' | 'deposit') {
  return harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: shopper.headers,
    payload: { ...createBody([{ productId, quantity: 1 }], totalCents), ...(mode ? { mode } : {}) },
  });
}

describe('POST /api/payments/quote', () => {
  it('requires a deposit of 289.000,00 € for the 2.890.000,00 € yacht', async () => {
    const yacht = await insertBoat({ priceCents: YACHT_CENTS });
    const response = await quote(await createUserWithSession(harness.app), [{ productId: yacht, quantity: 1 }]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      totalCents: YACHT_CENTS,
      cardLimitCents: 99_999_999,
      depositOffered: true,
      depositRequired: true,
      depositCents: DEPOSIT_CENTS,
      balanceDueDays: 14,
    });
  });

  it('offers no deposit below the card limit', async () => {
    const boat = await insertBoat({ priceCents: 3_890_000, category: 'sailing-boats' });
    const response = await quote(await createUserWithSession(harness.app), [{ productId: boat, quantity: 2 }]);
    expect(response.json()).toMatchObject({ totalCents: 7_780_000, depositOffered: false, depositRequired: false, depositCents: null });
  });

  it('caps the deposit of the 48.500.000,00 € yacht at what one card payment carries', async () => {
    const yacht = await insertBoat({ priceCents: 4_850_000_000 });
    const response = await quote(await createUserWithSession(harness.app), [{ productId: yacht, quantity: 1 }]);
    expect(response.json()).toMatchObject({ totalCents: 4_850_000_000, depositCents: 99_999_900 });
  });

  it('needs a session, and says when a product is no longer sold', async () => {
    const yacht = await insertBoat({ priceCents: YACHT_CENTS });
    expect((await quote(null, [{ productId: yacht, quantity: 1 }])).statusCode).toBe(401);
    const gone = await quote(await createUserWithSession(harness.app), [
      { productId: yacht, quantity: 1 },
      { productId: '00000000-0000-4000-8000-000000000000', quantity: 1 },
    ]);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error).toMatchObject({
      code: 'PRICES_CHANGED',
      totalCents: YACHT_CENTS,
      details: ['A product in your cart is no longer sold.'],
    });
  });
});

describe('POST /api/payments/create with mode', () => {
  it('refuses full payment above the card limit, naming the deposit, and opens nothing', async () => {
    const yacht = await insertBoat({ priceCents: YACHT_CENTS });
    const response = await create(await createUserWithSession(harness.app), yacht, YACHT_CENTS);
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toEqual({
      code: 'AMOUNT_TOO_LARGE',
      message:
        'Card payments are limited to 999.999,99\u00a0€; this order comes to 2.890.000,00\u00a0€. ' +
        'Reserve it with a deposit of 289.000,00\u00a0€ by card and pay the balance by bank transfer. Nothing was charged.',
      totalCents: YACHT_CENTS,
    });
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });

  it('refuses a deposit where none is offered with 422 DEPOSIT_NOT_OFFERED', async () => {
    const boat = await insertBoat({ priceCents: 3_890_000, category: 'sailing-boats' });
    const response = await create(await createUserWithSession(harness.app), boat, 3_890_000, 'deposit');
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'DEPOSIT_NOT_OFFERED', totalCents: 3_890_000 });
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });

  it('opens a deposit order: the card is asked for the deposit, the order has its RF reference, the boat is held', async () => {
    const yacht = await insertBoat({ priceCents: YACHT_CENTS, stock: 1 });
    const response = await create(await createUserWithSession(harness.app), yacht, YACHT_CENTS, 'deposit');
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ totalCents: YACHT_CENTS, amountCents: DEPOSIT_CENTS, mode: 'deposit' });

    const intent = await harness.stripe.paymentIntents.retrieve(intentIdOf(body.clientSecret));
    expect(intent.amount).toBe(DEPOSIT_CENTS);
    const order = await harness.app.db
      .selectFrom('orders')
      .select(['status', 'deposit_cents', 'bank_reference', 'stock_status'])
      .where('id', '=', body.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'pending', deposit_cents: DEPOSIT_CENTS, stock_status: 'reserved' });
    expect(isValidCreditorReference(order.bank_reference!)).toBe(true);
    const line = await harness.app.db
      .selectFrom('order_payments')
      .select(['method', 'amount_cents'])
      .where('order_id', '=', body.orderId)
      .execute();
    expect(line).toEqual([{ method: 'card', amount_cents: DEPOSIT_CENTS }]);
  });

  it('offers a deposit below the limit for a deposit category, and the full mode stays possible', async () => {
    const app = harness.app;
    const saved = app.config.deposits.categories;
    app.config.deposits.categories = ['sailing-boats'];
    try {
      const boat = await insertBoat({ priceCents: 3_890_000, category: 'sailing-boats' });
      const shopper = await createUserWithSession(app);
      const deposit = await create(shopper, boat, 3_890_000, 'deposit');
      expect(deposit.statusCode).toBe(201);
      expect(deposit.json()).toMatchObject({ amountCents: 389_000, mode: 'deposit' });
      const full = await create(shopper, boat, 3_890_000, 'full');
      expect(full.statusCode).toBe(201);
      expect(full.json()).toMatchObject({ amountCents: 3_890_000, mode: 'full' });
      // A different mode is a different checkout: the deposit order was replaced.
      expect(full.json().orderId).not.toBe(deposit.json().orderId);
    } finally {
      app.config.deposits.categories = saved;
    }
  });

  it('answers the same open order to a second press with the same mode', async () => {
    const yacht = await insertBoat({ priceCents: YACHT_CENTS });
    const shopper = await createUserWithSession(harness.app);
    const first = await create(shopper, yacht, YACHT_CENTS, 'deposit');
    const second = await create(shopper, yacht, YACHT_CENTS, 'deposit');
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
  });
});

describe('the deposit paid by card', () => {
  it('reserves the order, keeps the boat held, and the order page shows the balance to transfer', async () => {
    const yacht = await insertBoat({ priceCents: YACHT_CENTS, stock: 1 });
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret } = (await create(shopper, yacht, YACHT_CENTS, 'deposit')).json();

    const paid = await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    expect(paid.body.status).toBe('succeeded');
    await harness.webhookDelivered('payment_intent.succeeded', intentIdOf(clientSecret));

    const row = await harness.app.db
      .selectFrom('orders')
      .select(['status', 'stock_status', 'paid_at', 'bank_reference'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'reserved', stock_status: 'reserved', paid_at: null });
    const product = await harness.app.inject({ url: `/api/products/${yacht}` });
    expect(product.json()).toMatchObject({ stock: 0, availability: 'reserved' });

    const confirm = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: shopper.headers,
      payload: { orderId },
    });
    expect(confirm.json()).toEqual({ orderId, status: 'reserved' });

    const page = await harness.app.inject({ url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(page.statusCode).toBe(200);
    const order = page.json();
    const { deposits } = harness.app.config;
    expect(order).toMatchObject({
      status: 'reserved',
      totalCents: YACHT_CENTS,
      paidCents: DEPOSIT_CENTS,
      depositCents: DEPOSIT_CENTS,
      balance: {
        amountCents: YACHT_CENTS - DEPOSIT_CENTS,
        dueOn: addDays(new Date(), 14),
        reference: row.bank_reference,
        accountHolder: deposits.bankAccountHolder,
        iban: deposits.bankIban,
        bic: deposits.bankBic,
        overdue: false,
      },
    });
    expect(order.timeline.map((entry: { status: string; note: string | null }) => [entry.status, entry.note])).toEqual([
      ['reserved', 'Deposit paid'],
    ]);
    expect(order.timeline[0].amountCents).toBe(DEPOSIT_CENTS);

    const history = await harness.app.inject({ url: '/api/orders', headers: shopper.headers });
    expect(history.json().data).toEqual([expect.objectContaining({ id: orderId, status: 'reserved' })]);
  });

  it('an order paid in full has no balance and no deposit', async () => {
    const boat = await insertBoat({ priceCents: 3_890_000, category: 'sailing-boats' });
    const shopper = await createUserWithSession(harness.app);
    const { orderId, clientSecret } = (await create(shopper, boat, 3_890_000)).json();
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', intentIdOf(clientSecret));
    const order = (await harness.app.inject({ url: `/api/orders/${orderId}`, headers: shopper.headers })).json();
    expect(order).toMatchObject({ status: 'paid', paidCents: 3_890_000, depositCents: null, balance: null });
  });
});
