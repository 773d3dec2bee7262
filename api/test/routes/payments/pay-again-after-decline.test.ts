import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, createBody, intentIdOf, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';

// The payment page after a declined card: the shopper presses Pay again (POST /api/payments/create)
// with another card. Their own declined checkout holds the one-off boat, so a second order for it
// would be refused as "just reserved"; the declined order itself is what Pay must find again.

const YACHT_CENTS = 150_000_000;
const DEPOSIT_CENTS = 15_000_000;

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

async function insertYacht(stock: number): Promise<string> {
  const row = await harness.app.db
    .insertInto('products')
    .values({
      name: 'Declined Then Paid 60',
      thumbnail_url: '/api/images/boat.svg',
      price_cents: YACHT_CENTS,
      category: 'yachts',
      created_by: null,
      stock_on_hand: stock,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function payDeposit(who: UserWithSession, productId: string, quantity = 1) {
  return harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: who.headers,
    payload: { ...createBody([{ productId, quantity }], YACHT_CENTS * quantity), mode: 'deposit' },
  });
}

async function declined(productId: string, quantity = 1) {
  const first = await payDeposit(shopper, productId, quantity);
  expect(first.statusCode, first.body).toBe(201);
  const order = first.json<{ orderId: string; clientSecret: string }>();
  expect((await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, '4000000000000002')).status).toBe(402);
  await harness.webhookDelivered('payment_intent.payment_failed', intentIdOf(order.clientSecret));
  const row = await harness.app.db.selectFrom('orders').select('status').where('id', '=', order.orderId).executeTakeFirstOrThrow();
  expect(row.status).toBe('failed');
  return order;
}

const stockOf = (productId: string) =>
  harness.app.db.selectFrom('products').select(['stock_on_hand', 'stock_reserved']).where('id', '=', productId).executeTakeFirstOrThrow();

describe('POST /api/payments/create after a declined card', () => {
  it('finds the declined order again for the same cart, and the good card reserves the yacht with it', async () => {
    const yacht = await insertYacht(1);
    const first = await declined(yacht);

    const again = await payDeposit(shopper, yacht);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ orderId: first.orderId, clientSecret: first.clientSecret, amountCents: DEPOSIT_CENTS });
    await confirmCardLikeTheBrowser(harness.standinUrl, first.clientSecret, '4242424242424242');
    await harness.webhookDelivered('payment_intent.succeeded', intentIdOf(first.clientSecret));

    const orders = await harness.app.db.selectFrom('orders').select(['id', 'status', 'stock_status']).execute();
    expect(orders).toEqual([{ id: first.orderId, status: 'reserved', stock_status: 'reserved' }]);
    expect(await stockOf(yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
    const second = await payDeposit(await createUserWithSession(harness.app), yacht);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('OUT_OF_STOCK');
  });
});
