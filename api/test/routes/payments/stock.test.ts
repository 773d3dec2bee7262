import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { releaseOrderStock, sellOrderStock } from '../../../src/features/stock/stock.repository.js';
import { buildTestApp, resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import {
  confirmCardLikeTheBrowser,
  createBody,
  intentIdOf,
  paymentsConfig,
  startPaymentsHarness,
  type PaymentsHarness,
} from './payments-test-kit.js';

// Stock and reservation: opening an order holds its units, a failure gives them back,
// a payment sells them, and no race sells a unit twice. Runs on PGlite and, with DATABASE_URL, on
// PostgreSQL, where the twenty requests really do run in parallel transactions.

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

async function insertBoat(options: { name: string; priceCents?: number; stock: number | null }): Promise<string> {
  const row = await harness.app.db
    .insertInto('products')
    .values({
      name: options.name,
      thumbnail_url: '/api/images/boat.svg',
      price_cents: options.priceCents ?? 3_890_000,
      category: 'sailing-boats',
      created_by: null,
      stock_on_hand: options.stock,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let requests = 0;

function create(shopper: UserWithSession, productId: string, quantity = 1, priceCents = 3_890_000) {
  requests += 1;
  return harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    // Shoppers at their own addresses: this file opens more orders than one address may per minute.
    headers: { ...shopper.headers, 'x-forwarded-for': `10.13.${Math.floor(requests / 250)}.${requests % 250}` },
    payload: createBody([{ productId, quantity }], quantity * priceCents),
  });
}

async function openOrder(shopper: UserWithSession, productId: string) {
  const response = await create(shopper, productId);
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<{ orderId: string; clientSecret: string }>();
  return { ...created, intentId: intentIdOf(created.clientSecret) };
}

async function product(productId: string) {
  const response = await harness.app.inject({ url: `/api/products/${productId}` });
  const { stock, availability } = response.json<{ stock: number | null; availability: string }>();
  return { stock, availability };
}

async function stockRow(productId: string) {
  return harness.app.db
    .selectFrom('products')
    .select(['stock_on_hand', 'stock_reserved'])
    .where('id', '=', productId)
    .executeTakeFirstOrThrow();
}

async function orderStock(orderId: string) {
  return harness.app.db.selectFrom('orders').select(['status', 'stock_status']).where('id', '=', orderId).executeTakeFirstOrThrow();
}

describe('opening an order for a boat in stock', () => {
  it('reserves its unit in the transaction that prices it: the boat reads as reserved', async () => {
    const boat = await insertBoat({ name: 'Nordvik 27 Classic', stock: 1 });
    expect(await product(boat)).toEqual({ stock: 1, availability: 'in_stock' });

    const { orderId } = await openOrder(await createUserWithSession(harness.app), boat);

    expect(await orderStock(orderId)).toEqual({ status: 'pending', stock_status: 'reserved' });
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
    expect(await product(boat)).toEqual({ stock: 0, availability: 'reserved' });
  });

  it('refuses a second shopper with 409 OUT_OF_STOCK naming the boat, and leaves no order behind', async () => {
    const boat = await insertBoat({ name: 'Nordvik 27 Classic', stock: 1 });
    await openOrder(await createUserWithSession(harness.app), boat);

    const response = await create(await createUserWithSession(harness.app), boat);

    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: {
        code: 'OUT_OF_STOCK',
        message: 'Nordvik 27 Classic has just been reserved or sold.',
        details: ['Nordvik 27 Classic'],
      },
    });
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toHaveLength(1);
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });

  it('says how many can be bought when the shopper asks for more than are free', async () => {
    const boat = await insertBoat({ name: 'Dinghy', priceCents: 100_000, stock: 2 });
    const response = await create(await createUserWithSession(harness.app), boat, 3, 100_000);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'OUT_OF_STOCK',
      message: 'Only 2 of Dinghy can be bought now: the others have just been reserved or sold.',
    });
  });

  it('holds nothing for a built-to-order model: any number can be ordered', async () => {
    const model = await insertBoat({ name: 'Aurora Bay 40', stock: null });
    const response = await create(await createUserWithSession(harness.app), model, 3);
    expect(response.statusCode).toBe(201);
    expect(await orderStock(response.json().orderId)).toEqual({ status: 'pending', stock_status: null });
    expect(await stockRow(model)).toEqual({ stock_on_hand: null, stock_reserved: 0 });
    expect(await product(model)).toEqual({ stock: null, availability: 'in_stock' });
  });

  it('gives twenty shoppers paying for the last boat at the same moment exactly one order holding it', async () => {
    const boat = await insertBoat({ name: 'Lisandra 42 Catamaran', stock: 1 });
    const shoppers = await Promise.all(Array.from({ length: 20 }, () => createUserWithSession(harness.app)));

    const responses = await Promise.all(shoppers.map((shopper) => create(shopper, boat)));

    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes).toEqual([201, ...Array(19).fill(409)]);
    for (const refused of responses.filter((response) => response.statusCode === 409)) {
      expect(refused.json().error).toMatchObject({
        code: 'OUT_OF_STOCK',
        message: 'Lisandra 42 Catamaran has just been reserved or sold.',
      });
    }
    const orders = await harness.app.db.selectFrom('orders').select(['status', 'stock_status']).execute();
    expect(orders).toEqual([{ status: 'pending', stock_status: 'reserved' }]);
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });
});

describe('orders for several one-off boats at once', () => {
  it('race without deadlock whatever order the boats come in: one order gets both, the rest 409', async () => {
    const ketch = await insertBoat({ name: 'Ketch', priceCents: 100_000, stock: 1 });
    const yawl = await insertBoat({ name: 'Yawl', priceCents: 100_000, stock: 1 });
    const shoppers = await Promise.all(Array.from({ length: 12 }, () => createUserWithSession(harness.app)));

    const responses = await Promise.all(
      shoppers.map((shopper, index) => {
        requests += 1;
        const lines = index % 2 === 0 ? [ketch, yawl] : [yawl, ketch];
        return harness.app.inject({
          method: 'POST',
          url: '/api/payments/create',
          headers: { ...shopper.headers, 'x-forwarded-for': `10.14.0.${requests % 250}` },
          payload: createBody(
            lines.map((productId) => ({ productId, quantity: 1 })),
            200_000,
          ),
        });
      }),
    );

    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, ...Array(11).fill(409)]);
    expect(await stockRow(ketch)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
    expect(await stockRow(yawl)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });
});

// A declined card keeps the hold (the same intent may still be paid until the order expires):
// test/routes/payments/ledger-findings.test.ts proves it with a deposit declined, then paid.
describe('the reserved unit after payment', () => {
  it('is sold when the order is paid: the boat reads as sold out and cannot be ordered again', async () => {
    const boat = await insertBoat({ name: 'Nordvik 27 Classic', stock: 1 });
    const { orderId, clientSecret, intentId } = await openOrder(await createUserWithSession(harness.app), boat);

    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', intentId);

    expect(await orderStock(orderId)).toEqual({ status: 'paid', stock_status: 'sold' });
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 0, stock_reserved: 0 });
    expect(await product(boat)).toEqual({ stock: 0, availability: 'sold_out' });
    expect((await create(await createUserWithSession(harness.app), boat)).statusCode).toBe(409);
  });

  it('is taken again when a retry on the declined intent succeeds and the boat is still free', async () => {
    const boat = await insertBoat({ name: 'Nordvik 27 Classic', stock: 1 });
    const { orderId, clientSecret, intentId } = await openOrder(await createUserWithSession(harness.app), boat);
    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, DECLINED_VISA);
    await harness.webhookDelivered('payment_intent.payment_failed', intentId);

    await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', intentId);

    expect(await orderStock(orderId)).toEqual({ status: 'paid', stock_status: 'sold' });
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 0, stock_reserved: 0 });
  });
});

describe('an order whose payment could not even start', () => {
  it('gives its unit back when the payment service does not answer', async () => {
    const unreachable = await buildTestApp({ payments: paymentsConfig('http://127.0.0.1:9') });
    try {
      const { headers } = await createUserWithSession(unreachable);
      const { id: boat } = await unreachable.db
        .insertInto('products')
        .values({
          name: 'Nordvik 27 Classic',
          thumbnail_url: '/api/images/boat.svg',
          price_cents: 3_890_000,
          category: 'sailing-boats',
          created_by: null,
          stock_on_hand: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      const response = await unreachable.inject({
        method: 'POST',
        url: '/api/payments/create',
        headers,
        payload: createBody([{ productId: boat, quantity: 1 }], 3_890_000),
      });

      expect(response.statusCode).toBe(502);
      expect(await unreachable.db.selectFrom('orders').select(['status', 'stock_status']).execute()).toEqual([
        { status: 'failed', stock_status: 'released' },
      ]);
      expect(
        await unreachable.db
          .selectFrom('products')
          .select(['stock_on_hand', 'stock_reserved'])
          .where('id', '=', boat)
          .executeTakeFirstOrThrow(),
      ).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
    } finally {
      await unreachable.close();
    }
  });
});

describe('releaseOrderStock and sellOrderStock', () => {
  it('release once however often and however concurrently they are called', async () => {
    const boat = await insertBoat({ name: 'Dinghy', priceCents: 100_000, stock: 5 });
    const response = await create(await createUserWithSession(harness.app), boat, 2, 100_000);
    const { orderId } = response.json<{ orderId: string }>();
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 5, stock_reserved: 2 });

    const released = await Promise.all(
      Array.from({ length: 10 }, () => harness.app.db.transaction().execute((trx) => releaseOrderStock(trx, orderId))),
    );

    expect(released.filter(Boolean)).toHaveLength(1);
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 5, stock_reserved: 0 });
    // A released order sold later (a paid retry) is a separate path; selling twice changes nothing more.
    await harness.app.db.transaction().execute((trx) => sellOrderStock(trx, orderId));
    await harness.app.db.transaction().execute((trx) => sellOrderStock(trx, orderId));
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 3, stock_reserved: 0 });
  });

  it('sell once under concurrency, and a release after the sale gives nothing back', async () => {
    const boat = await insertBoat({ name: 'Dinghy', priceCents: 100_000, stock: 5 });
    const { orderId } = (await create(await createUserWithSession(harness.app), boat, 2, 100_000)).json<{ orderId: string }>();

    const sold = await Promise.all(
      Array.from({ length: 10 }, () => harness.app.db.transaction().execute((trx) => sellOrderStock(trx, orderId))),
    );
    await harness.app.db.transaction().execute((trx) => releaseOrderStock(trx, orderId));

    expect(sold.filter(Boolean)).toEqual(['sold']);
    expect(await stockRow(boat)).toEqual({ stock_on_hand: 3, stock_reserved: 0 });
    expect(await product(boat)).toEqual({ stock: 3, availability: 'in_stock' });
  });
});

describe('GET /api/products?available=true', () => {
  it('leaves out sold-out boats and keeps reserved ones and built-to-order models', async () => {
    await insertBoat({ name: 'Sold Sloop', stock: 0 });
    const reserved = await insertBoat({ name: 'Reserved Ketch', stock: 1 });
    await insertBoat({ name: 'Built To Order Yawl', stock: null });
    await openOrder(await createUserWithSession(harness.app), reserved);

    const names = async (query: string) =>
      (await harness.app.inject({ url: `/api/products?limit=48${query}` }))
        .json<{ data: { name: string; availability: string }[] }>()
        .data.map(({ name, availability }) => `${name}: ${availability}`)
        .sort();

    expect(await names('')).toEqual(['Built To Order Yawl: in_stock', 'Reserved Ketch: reserved', 'Sold Sloop: sold_out']);
    expect(await names('&available=true')).toEqual(['Built To Order Yawl: in_stock', 'Reserved Ketch: reserved']);
    expect((await harness.app.inject({ url: '/api/products?available=maybe' })).statusCode).toBe(400);
  });
});
