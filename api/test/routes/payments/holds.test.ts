import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderMoney } from '../../../src/features/ledger/ledger.js';
import { releaseExpiredHolds } from '../../../src/features/stock/holds.js';
import { loadConfig } from '../../../src/config.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, createBody, intentIdOf, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';

// Holds of one-off boats: short for an unpaid checkout, until the balance is due for a paid
// deposit, only for verified accounts and within limits per account and per client address; a
// payment that lands after its hold ended and the boat went to someone else is refunded once,
// automatically, and the shopper is told.

const VISA = '4242424242424242';
const DECLINED = '4000000000000002';
const BOAT_CENTS = 4_500_000;
const YACHT_CENTS = 289_000_000;

let harness: PaymentsHarness;
let shopper: UserWithSession;

beforeAll(async () => {
  const defaults = loadConfig({}).orders;
  harness = await startPaymentsHarness({
    orders: { ...defaults, checkoutHoldMinutes: 15, maxOpenHoldsPerAccount: 2, maxOpenHoldsPerAddress: 3 },
  });
});
beforeEach(async () => {
  harness.setWebhooksReachable(true);
  await resetDatabase(harness.app);
  shopper = await createUserWithSession(harness.app);
});
afterAll(() => harness?.close());

async function insertBoat(priceCents: number, stock: number | null = 1, category: 'yachts' | 'sailing-boats' = 'sailing-boats') {
  const row = await harness.app.db
    .insertInto('products')
    .values({
      name: `Boat ${Math.random().toString(36).slice(2, 8)}`,
      thumbnail_url: '/api/images/boat.svg',
      price_cents: priceCents,
      category,
      created_by: null,
      stock_on_hand: stock,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const create = (who: UserWithSession, productId: string, totalCents: number, mode?: 'deposit', ip = '127.0.0.1') =>
  harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: who.headers,
    remoteAddress: ip,
    payload: { ...createBody([{ productId, quantity: 1 }], totalCents), ...(mode ? { mode } : {}) },
  });

async function opened(who: UserWithSession, productId: string, totalCents: number, mode?: 'deposit', ip?: string) {
  const response = await create(who, productId, totalCents, mode, ip);
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ orderId: string; clientSecret: string }>();
  return { ...body, intentId: intentIdOf(body.clientSecret) };
}

const stockOf = (productId: string) =>
  harness.app.db.selectFrom('products').select(['stock_on_hand', 'stock_reserved']).where('id', '=', productId).executeTakeFirstOrThrow();

const orderRow = (orderId: string) =>
  harness.app.db
    .selectFrom('orders')
    .select(['status', 'stock_status', 'hold_expires_at', 'balance_due_on'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();

/** The hold's deadline passes (as if the clock moved on), then the hold-expiry job runs. */
async function endHold(orderId: string) {
  await harness.app.db
    .updateTable('orders')
    .set({ hold_expires_at: sql<Date>`now() - interval '1 minute'` })
    .where('id', '=', orderId)
    .execute();
  return releaseExpiredHolds(harness.app.db);
}

const mails = (orderId: string, template: string) =>
  harness.app.db
    .selectFrom('outbox')
    .select('payload')
    .where(sql<boolean>`payload->>'orderId' = ${orderId} and payload->>'template' = ${template}`)
    .execute();

async function chargeOf(intentId: string) {
  return (await harness.stripe.paymentIntents.retrieve(intentId)).latest_charge as string;
}

describe('checkout holds', () => {
  it('an unpaid card checkout holds a one-off boat for CHECKOUT_HOLD_MINUTES, not a day', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const before = Date.now();
    const order = await opened(shopper, boat, BOAT_CENTS);
    const row = await orderRow(order.orderId);
    expect(row.stock_status).toBe('reserved');
    const minutes = (row.hold_expires_at!.getTime() - before) / 60_000;
    expect(minutes).toBeGreaterThan(14.9);
    expect(minutes).toBeLessThan(15.5);

    // Before its deadline the job leaves it; after, the boat is for sale again.
    expect(await releaseExpiredHolds(harness.app.db)).toBe(0);
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
    expect(await endHold(order.orderId)).toBe(1);
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'pending', stock_status: 'released' });
    await opened(await createUserWithSession(harness.app), boat, BOAT_CENTS);
  });

  it('a declined card keeps the hold only until its deadline', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const order = await opened(shopper, boat, BOAT_CENTS);
    await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, DECLINED);
    await harness.webhookDelivered('payment_intent.payment_failed', order.intentId);
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'failed', stock_status: 'reserved' });
    expect(await endHold(order.orderId)).toBe(1);
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
  });

  it('pressing Pay again renews the hold, or takes the boat again when it is still free', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const order = await opened(shopper, boat, BOAT_CENTS);
    await endHold(order.orderId);
    const again = await opened(shopper, boat, BOAT_CENTS);
    expect(again.orderId).toBe(order.orderId);
    expect(await orderRow(order.orderId)).toMatchObject({ stock_status: 'reserved' });
    expect((await orderRow(order.orderId)).hold_expires_at!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });

  it('a paid deposit holds the yacht until the balance is due', async () => {
    const yacht = await insertBoat(YACHT_CENTS, 1, 'yachts');
    const order = await opened(shopper, yacht, YACHT_CENTS, 'deposit');
    await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', order.intentId);
    const row = await orderRow(order.orderId);
    expect(row).toMatchObject({ status: 'reserved', stock_status: 'reserved' });
    const due = new Date(row.balance_due_on as string | Date);
    const dueDay = typeof row.balance_due_on === 'string' ? row.balance_due_on.slice(0, 10) : due.toISOString().slice(0, 10);
    // The end of the due day (UTC): held for days, not minutes.
    expect(row.hold_expires_at!.toISOString()).toBe(new Date(Date.parse(`${dueDay}T00:00:00.000Z`) + 86_400_000).toISOString());
    expect(await releaseExpiredHolds(harness.app.db)).toBe(0);
    expect(await stockOf(yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });

  it('an account whose e-mail is not verified cannot hold a one-off boat, and is told why', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const squatter = await createUserWithSession(harness.app, { emailVerified: false });
    const response = await create(squatter, boat, BOAT_CENTS);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect(response.json().error.message).toMatch(/verify your e-mail address/i);
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toEqual([]);
    // A built-to-order boat holds nothing: it can be bought.
    const builtToOrder = await insertBoat(BOAT_CENTS, null);
    expect((await create(squatter, builtToOrder, BOAT_CENTS)).statusCode).toBe(201);
  });

  it('limits open holds per account (declined checkouts keep holding) with a clear 429', async () => {
    const boats = [await insertBoat(BOAT_CENTS), await insertBoat(BOAT_CENTS), await insertBoat(BOAT_CENTS)];
    for (const boat of boats.slice(0, 2)) {
      const order = await opened(shopper, boat, BOAT_CENTS);
      await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, DECLINED);
      await harness.webhookDelivered('payment_intent.payment_failed', order.intentId);
    }
    const third = await create(shopper, boats[2]!, BOAT_CENTS);
    expect(third.statusCode).toBe(429);
    expect(third.json().error.code).toBe('TOO_MANY_HOLDS');
    expect(third.json().error.message).toMatch(/Your account already holds 2 boats/);
    expect(await stockOf(boats[2]!)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
  });

  it('limits open holds per client address: four free accounts cannot take four boats off the market', async () => {
    const boats = await Promise.all([1, 2, 3, 4].map(() => insertBoat(BOAT_CENTS)));
    const accounts = await Promise.all([1, 2, 3, 4].map(() => createUserWithSession(harness.app)));
    const answers = await Promise.all(accounts.map((account, i) => create(account, boats[i]!, BOAT_CENTS, undefined, '203.0.113.9')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 429]);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().error.message).toMatch(/from your network/);
    const held = await harness.app.db
      .selectFrom('products')
      .select(sql<number>`sum(stock_reserved)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(held.n).toBe(3);
    // Another address is not counted against them.
    expect((await create(accounts[3]!, boats[3]!, BOAT_CENTS, undefined, '198.51.100.7')).statusCode).toBe(201);
  });
});

describe('a payment after the hold ended', () => {
  it('takes the boat when it is still free', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const order = await opened(shopper, boat, BOAT_CENTS);
    await endHold(order.orderId);
    await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', order.intentId);
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'paid', stock_status: 'sold' });
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 0, stock_reserved: 0 });
    expect(await mails(order.orderId, 'boat_unavailable')).toEqual([]);
  });

  it("takes only its own boat: every other boat's stock is untouched (found by the model-based test)", async () => {
    const others = [await insertBoat(BOAT_CENTS), await insertBoat(BOAT_CENTS, 3)];
    const boat = await insertBoat(BOAT_CENTS);
    const order = await opened(shopper, boat, BOAT_CENTS);
    await endHold(order.orderId);
    await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', order.intentId);
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 0, stock_reserved: 0 });
    expect(await stockOf(others[0]!)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
    expect(await stockOf(others[1]!)).toEqual({ stock_on_hand: 3, stock_reserved: 0 });
  });

  it('is refunded automatically, once, with an e-mail, when the boat went to someone else', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const late = await opened(shopper, boat, BOAT_CENTS);
    await endHold(late.orderId);
    const other = await opened(await createUserWithSession(harness.app), boat, BOAT_CENTS);

    await confirmCardLikeTheBrowser(harness.standinUrl, late.clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', late.intentId);
    // The browser's confirmation and a replayed webhook report the same payment again.
    await harness.app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: shopper.headers,
      payload: { orderId: late.orderId },
    });

    expect(await orderRow(late.orderId)).toMatchObject({ status: 'cancelled', stock_status: 'short' });
    expect(await orderMoney(harness.app.db, late.orderId)).toMatchObject({
      receivedCents: BOAT_CENTS,
      refundedCents: BOAT_CENTS,
      heldCents: 0,
      refundsInFlightCents: 0,
    });
    const atStripe = await harness.stripe.refunds.list({ charge: await chargeOf(late.intentId) });
    expect(atStripe.data.map((r) => r.amount)).toEqual([BOAT_CENTS]);
    const unavailable = await mails(late.orderId, 'boat_unavailable');
    expect(unavailable).toHaveLength(1);
    expect(await mails(late.orderId, 'order_confirmation')).toEqual([]);
    // The other shopper keeps the boat.
    expect(await orderRow(other.orderId)).toMatchObject({ status: 'pending', stock_status: 'reserved' });
    expect(await stockOf(boat)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });

  it('a deposit paid after its hold ended and the yacht went to someone else is refunded and the order cancelled', async () => {
    const yacht = await insertBoat(YACHT_CENTS, 1, 'yachts');
    const late = await opened(shopper, yacht, YACHT_CENTS, 'deposit');
    await endHold(late.orderId);
    await opened(await createUserWithSession(harness.app), yacht, YACHT_CENTS, 'deposit');
    await confirmCardLikeTheBrowser(harness.standinUrl, late.clientSecret, VISA);
    await harness.webhookDelivered('payment_intent.succeeded', late.intentId);
    expect(await orderRow(late.orderId)).toMatchObject({ status: 'cancelled', stock_status: 'short' });
    expect(await orderMoney(harness.app.db, late.orderId)).toMatchObject({ heldCents: 0, refundsInFlightCents: 0 });
    expect(await mails(late.orderId, 'boat_unavailable')).toHaveLength(1);
    expect(await mails(late.orderId, 'deposit_received')).toEqual([]);
    expect(await stockOf(yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });

  it('a refund the provider did not take at once is sent by the settle job under the same key', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const late = await opened(shopper, boat, BOAT_CENTS);
    await endHold(late.orderId);
    await opened(await createUserWithSession(harness.app), boat, BOAT_CENTS);
    // Every refund answer is cut off: the automatic refund stays pending, outcome unknown.
    harness.setWebhooksReachable(false);
    await fetch(`${harness.standinUrl}/_faults/drop-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ path: '/v1/refunds', count: '3' }),
    });
    await confirmCardLikeTheBrowser(harness.standinUrl, late.clientSecret, VISA);
    const confirm = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: shopper.headers,
      payload: { orderId: late.orderId },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(await orderMoney(harness.app.db, late.orderId)).toMatchObject({ refundsInFlightCents: BOAT_CENTS, cancelInFlight: true });
    harness.setWebhooksReachable(true);
    const { settleUnsettledRefunds } = await import('../../../src/features/orders/order-refunds.js');
    expect(await settleUnsettledRefunds(harness.app.db, harness.app.payments, harness.app.log, 0)).toBe(1);
    expect(await orderRow(late.orderId)).toMatchObject({ status: 'cancelled' });
    expect((await harness.stripe.refunds.list({ charge: await chargeOf(late.intentId) })).data).toHaveLength(1);
  });

  it('races: the hold ending, a second shopper and the late payment at once never sell the boat twice', async () => {
    for (let round = 0; round < 6; round += 1) {
      await resetDatabase(harness.app);
      const first = await createUserWithSession(harness.app);
      const second = await createUserWithSession(harness.app);
      const boat = await insertBoat(BOAT_CENTS);
      const late = await opened(first, boat, BOAT_CENTS);
      await harness.app.db
        .updateTable('orders')
        .set({ hold_expires_at: sql<Date>`now() - interval '1 minute'` })
        .where('id', '=', late.orderId)
        .execute();
      await confirmCardLikeTheBrowser(harness.standinUrl, late.clientSecret, VISA).catch(() => undefined);
      const [, secondAnswer] = await Promise.all([
        releaseExpiredHolds(harness.app.db),
        create(second, boat, BOAT_CENTS),
        harness.app.inject({ method: 'POST', url: '/api/payments/confirm', headers: first.headers, payload: { orderId: late.orderId } }),
      ]);
      await harness.webhookDelivered('payment_intent.succeeded', late.intentId);
      expect(secondAnswer.statusCode).toBeLessThan(500);
      const product = await stockOf(boat);
      const orders = await harness.app.db.selectFrom('orders').select(['id', 'status', 'stock_status']).execute();
      const holding = orders.filter((o) => o.stock_status === 'reserved' || o.stock_status === 'sold');
      // One order at most holds or bought the boat, and the product's counts agree with it.
      expect(holding.length).toBeLessThanOrEqual(1);
      expect(1 - product.stock_on_hand!).toBe(holding.filter((o) => o.stock_status === 'sold').length);
      expect(product.stock_reserved).toBe(holding.filter((o) => o.stock_status === 'reserved').length);
      // The late payment either bought the boat or is being given back.
      const lateRow = orders.find((o) => o.id === late.orderId)!;
      const money = (await orderMoney(harness.app.db, late.orderId))!;
      if (lateRow.stock_status === 'short') expect(money.heldCents).toBe(0);
      else expect(lateRow).toMatchObject({ status: 'paid', stock_status: 'sold' });
    }
  });
});
