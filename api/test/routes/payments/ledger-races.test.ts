import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminOrder, AdminOrderPage, ProductPage } from '@boatshop/contract';
import { orderMoney } from '../../../src/features/ledger/ledger.js';
import { expirePendingOrders } from '../../../src/features/orders/order-expiry.js';
import { releaseExpiredHolds } from '../../../src/features/stock/holds.js';
import type { PaymentProvider } from '../../../src/features/payments/payment-provider.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, createBody, insertProduct, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';
import { freshShop, openOrder, payByCard } from '../../support/card-orders.js';

// The races left open by the ledger's first pass, each forced in both orders and then run at once:
// a provider's cancel webhook against the expiry, an admin's cancel against the provider's
// webhooks, two "refund all" at once. And `short` stock, visible to admins.

const VISA = '4242424242424242';
const REFUND_PENDING = '4000000000007726';
const BOAT_CENTS = 1_000_000;

let harness: PaymentsHarness;
let admin: UserWithSession;
let otherAdmin: UserWithSession;
let shopper: UserWithSession;
let payments: PaymentProvider;
let originalCancel: PaymentProvider['cancelIntent'];

beforeAll(async () => {
  harness = await startPaymentsHarness();
  payments = harness.app.payments!;
  originalCancel = payments.cancelIntent.bind(payments);
});
beforeEach(async () => {
  payments.cancelIntent = originalCancel;
  ({ admin, shopper } = await freshShop(harness));
  otherAdmin = await createUserWithSession(harness.app, { roles: ['user', 'admin'] });
});
afterAll(() => harness?.close());

const insertBoat = (stock: number | null = 1) => insertProduct(harness.app, { priceCents: BOAT_CENTS, stock });

const opened = (who: UserWithSession, productId: string) => openOrder(harness, who, productId, BOAT_CENTS);

async function paid(card = VISA) {
  const order = await opened(shopper, await insertBoat(null));
  await payByCard(harness, order, card);
  return order;
}

const act = (who: UserWithSession, orderId: string, action: string, payload: object) =>
  harness.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/${action}`, headers: who.headers, payload });

const adminOrder = async (orderId: string) =>
  (await harness.app.inject({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: admin.headers })).json<AdminOrder>();

const statusOf = async (orderId: string) =>
  await harness.app.db.selectFrom('orders').select(['status', 'stock_status']).where('id', '=', orderId).executeTakeFirstOrThrow();

const eventsTo = async (orderId: string) =>
  (await harness.app.db.selectFrom('order_events').select('to_status').where('order_id', '=', orderId).orderBy('at').execute()).map(
    (row) => row.to_status,
  );

/** The order is older than the pending-order time to live: the expiry job takes it. */
const makeStale = (orderId: string) =>
  harness.app.db
    .updateTable('orders')
    .set({ created_at: sql<Date>`now() - interval '2 days'` } as never)
    .where('id', '=', orderId)
    .execute();

const expire = () => expirePendingOrders(harness.app.db, payments, harness.app.log, harness.app.config.orders.pendingOrderTtlMinutes);

describe('short stock is visible to admins', () => {
  it('the order list, the order and the catalogue show a paid order whose boat went to another order', async () => {
    const boat = await insertBoat(1);
    const late = await opened(shopper, boat);
    await harness.app.db
      .updateTable('orders')
      .set({ hold_expires_at: sql<Date>`now() - interval '1 minute'` })
      .execute();
    await releaseExpiredHolds(harness.app.db);
    await opened(await createUserWithSession(harness.app), boat);
    // The automatic refund is answered pending: the order stays paid, short, until it settles.
    await confirmCardLikeTheBrowser(harness.standinUrl, late.clientSecret, REFUND_PENDING);
    await harness.webhookDelivered('payment_intent.succeeded', late.intentId);
    expect(await statusOf(late.orderId)).toEqual({ status: 'paid', stock_status: 'short' });

    const list = (await harness.app.inject({ method: 'GET', url: '/api/admin/orders', headers: admin.headers })).json<AdminOrderPage>();
    expect(list.data.find((o) => o.id === late.orderId)).toMatchObject({ stockStatus: 'short' });
    expect(await adminOrder(late.orderId)).toMatchObject({ stockStatus: 'short' });
    const products = (await harness.app.inject({ method: 'GET', url: '/api/admin/products', headers: admin.headers })).json<ProductPage>();
    expect(products.data.find((p) => p.id === boat)).toMatchObject({ shortOrders: 1 });
    // The public catalogue does not say it.
    const shop = (await harness.app.inject({ method: 'GET', url: '/api/products' })).json<ProductPage>();
    expect(shop.data.find((p) => p.id === boat)).not.toHaveProperty('shortOrders');
  });
});

describe('the provider cancel webhook against the expiry', () => {
  it('webhook first: the order is expired, not cancelled, and the expiry then finds nothing', async () => {
    const boat = await insertBoat(1);
    const order = await opened(shopper, boat);
    await makeStale(order.orderId);
    // The expiry's cancel reaches the provider, whose webhook is applied before the expiry's own transaction.
    payments.cancelIntent = async (id, reason) => {
      const intent = await originalCancel(id, reason);
      await harness.webhookDelivered('payment_intent.canceled', id);
      return intent;
    };
    await expire();
    expect(await statusOf(order.orderId)).toEqual({ status: 'expired', stock_status: 'released' });
    expect(await eventsTo(order.orderId)).toEqual(['expired']);
  });

  it('expiry first, the webhook late: the order stays expired', async () => {
    const order = await opened(shopper, await insertBoat(1));
    await makeStale(order.orderId);
    harness.setWebhooksReachable(false);
    await expire();
    harness.setWebhooksReachable(true);
    const intent = await harness.stripe.paymentIntents.retrieve(order.intentId);
    const { DEV_STRIPE } = await import('../../../src/config.js');
    const payload = JSON.stringify({
      id: `evt_late_${intent.id}`,
      object: 'event',
      type: 'payment_intent.canceled',
      data: { object: intent },
    });
    const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
    const late = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    expect(late.statusCode).toBe(200);
    expect(await statusOf(order.orderId)).toEqual({ status: 'expired', stock_status: 'released' });
    expect(await eventsTo(order.orderId)).toEqual(['expired']);
  });

  it('at once, round after round: always expired, one event, the boat released once', async () => {
    for (let round = 0; round < 5; round += 1) {
      const boat = await insertBoat(1);
      const order = await opened(shopper, boat);
      await makeStale(order.orderId);
      await Promise.all([expire(), expire()]);
      await harness.webhookDelivered('payment_intent.canceled', order.intentId);
      expect(await statusOf(order.orderId)).toEqual({ status: 'expired', stock_status: 'released' });
      expect(await eventsTo(order.orderId)).toEqual(['expired']);
      const product = await harness.app.db.selectFrom('products').select('stock_reserved').where('id', '=', boat).executeTakeFirstOrThrow();
      expect(product.stock_reserved).toBe(0);
    }
  });
});

describe("an admin's cancel against the provider's webhooks", () => {
  it("the cancel's own webhook first: the admin is answered 200 and the order is cancelled once", async () => {
    const order = await opened(shopper, await insertBoat(1));
    payments.cancelIntent = async (id, reason) => {
      const intent = await originalCancel(id, reason);
      await harness.webhookDelivered('payment_intent.canceled', id);
      return intent;
    };
    const response = await act(admin, order.orderId, 'cancel', { reason: 'Buyer asked by phone' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await statusOf(order.orderId)).toEqual({ status: 'cancelled', stock_status: 'released' });
    expect(await eventsTo(order.orderId)).toEqual(['cancelled']);
  });

  it('paid while the admin cancels: the payment is booked and refunded in full, the order cancelled', async () => {
    const order = await opened(shopper, await insertBoat(1));
    harness.setWebhooksReachable(false);
    payments.cancelIntent = async (id, reason) => {
      await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, VISA);
      return originalCancel(id, reason);
    };
    const response = await act(admin, order.orderId, 'cancel', { reason: 'Buyer asked by phone' });
    expect(response.statusCode, response.body).toBe(200);
    harness.setWebhooksReachable(true);
    expect((await statusOf(order.orderId)).status).toBe('cancelled');
    expect(await orderMoney(harness.app.db, order.orderId)).toMatchObject({
      receivedCents: BOAT_CENTS,
      refundedCents: BOAT_CENTS,
      heldCents: 0,
    });
    const charge = (await harness.stripe.paymentIntents.retrieve(order.intentId)).latest_charge as string;
    expect((await harness.stripe.refunds.list({ charge })).data.map((r) => r.amount)).toEqual([BOAT_CENTS]);
  });

  it('at once with the payment webhook, round after round: never cancelled with money held, never a 5xx', async () => {
    for (let round = 0; round < 5; round += 1) {
      const order = await opened(shopper, await insertBoat(1));
      const [cancel] = await Promise.all([
        act(admin, order.orderId, 'cancel', { reason: 'Race' }),
        confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, VISA),
      ]);
      expect(cancel.statusCode, cancel.body).toBeLessThan(500);
      // Let the webhooks of whatever happened arrive.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const { status } = await statusOf(order.orderId);
      const money = (await orderMoney(harness.app.db, order.orderId))!;
      if (status === 'cancelled') expect(money.heldCents).toBe(0);
      else expect(status).toBe('paid');
      expect(money.refundedCents).toBeLessThanOrEqual(money.receivedCents);
    }
  });
});

describe('two "refund all" at once', () => {
  it('the second is 409 NOTHING_TO_REFUND whether the first is in flight or done', async () => {
    const inFlight = await paid(REFUND_PENDING);
    expect((await act(admin, inFlight.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: 'refund-all-a1' })).statusCode).toBe(
      200,
    );
    const second = await act(otherAdmin, inFlight.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: 'refund-all-b1' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('NOTHING_TO_REFUND');

    const done = await paid();
    expect((await act(admin, done.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: 'refund-all-a2' })).statusCode).toBe(200);
    expect((await statusOf(done.orderId)).status).toBe('refunded');
    const after = await act(otherAdmin, done.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: 'refund-all-b2' });
    expect(after.statusCode).toBe(409);
    expect(after.json().error.code).toBe('NOTHING_TO_REFUND');
  });

  it('at once, round after round: one 200, one 409 NOTHING_TO_REFUND, one refund at the provider', async () => {
    for (let round = 0; round < 5; round += 1) {
      const order = await paid(round % 2 === 0 ? VISA : REFUND_PENDING);
      const answers = await Promise.all([
        act(admin, order.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: `race-a-${round}-key` }),
        act(otherAdmin, order.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: `race-b-${round}-key` }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)!.json().error.code).toBe('NOTHING_TO_REFUND');
      const charge = (await harness.stripe.paymentIntents.retrieve(order.intentId)).latest_charge as string;
      expect((await harness.stripe.refunds.list({ charge })).data).toHaveLength(1);
    }
  });
});

describe('found by the model-based test', () => {
  it('a dispute of a charge refunded in full (nothing at risk) is answered 200 and books nothing', async () => {
    const order = await paid();
    expect((await act(admin, order.orderId, 'refund', { amountCents: BOAT_CENTS, idempotencyKey: 'model-found-1' })).statusCode).toBe(200);
    const response = await fetch(`${harness.standinUrl}/_dashboard/payment_intents/${order.intentId}/dispute`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(await import('../../../src/config.js')).DEV_STRIPE.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ reason: 'fraudulent' }),
    });
    const dispute = (await response.json()) as { id: string; amount: number };
    expect(dispute.amount).toBe(0);
    const delivery = await harness.webhookDelivered('charge.dispute.created', dispute.id);
    expect(delivery.statusCode).toBe(200);
    expect(await statusOf(order.orderId)).toMatchObject({ status: 'refunded' });
    expect(await orderMoney(harness.app.db, order.orderId)).toMatchObject({ atRiskCents: 0, heldCents: 0 });
  });
});

// Needs a second connection to hold a transaction open while the request runs: PostgreSQL only.
describe.skipIf(!process.env.DATABASE_URL)('a checkout replacing an order that a webhook is paying', () => {
  /** Waits until some other session of this database is blocked on a lock. */
  async function someoneWaitsForALock() {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(harness.app.db);
      if (rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('nothing ever waited for a lock');
  }

  it('waits for the webhook instead of deadlocking with it', async () => {
    const first = await opened(shopper, await insertBoat(null));
    const next = await insertBoat(null);
    let replacing: Promise<{ statusCode: number; body: string }> | undefined;
    // What a paying webhook does: it holds the order, then writes rows referencing the shopper
    // (each foreign key check takes a KEY SHARE lock on the user's row).
    const webhook = harness.app.db.transaction().execute(async (trx) => {
      await trx.selectFrom('orders').select('id').where('id', '=', first.orderId).forUpdate().execute();
      replacing = harness.app.inject({
        method: 'POST',
        url: '/api/payments/create',
        headers: shopper.headers,
        payload: createBody([{ productId: next, quantity: 1 }], BOAT_CENTS),
      });
      // The new checkout holds the shopper's row and waits for the order this transaction holds.
      await someoneWaitsForALock();
      await trx.selectFrom('users').select('id').where('id', '=', shopper.user.id).forKeyShare().execute();
    });
    await expect(webhook).resolves.toBeUndefined();
    const response = await replacing!;
    expect(response.statusCode, response.body).toBe(201);
    expect(await statusOf(first.orderId)).toMatchObject({ status: 'cancelled' });
  });
});
