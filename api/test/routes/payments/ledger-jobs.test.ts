import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_STRIPE } from '../../../src/config.js';
import { orderMoney } from '../../../src/features/ledger/ledger.js';
import { HOLD_EXPIRY_QUEUE, SETTLE_REFUNDS_QUEUE } from '../../../src/plugins/app/jobs.js';
import { type UserWithSession } from '../../helpers/users.js';
import { createBody, insertProduct, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';
import { freshShop, openOrder, payByCard } from '../../support/card-orders.js';

// The ledger's background work on the real job queue (pg-boss): the settle-refunds job asks the
// payment provider (the Stripe stand-in) about a refund whose answer was lost, and a refund webhook
// arriving late, before or after the job, converges on one refund in the ledger. The hold-expiry
// job gives back the boat of a checkout whose hold ended.

const BOAT_CENTS = 1_000_000;

let harness: PaymentsHarness;
let admin: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness({
    jobs: { enabled: true, pollingIntervalSeconds: 0.5, retryLimit: 2, retryDelaySeconds: 1, outboxSweepMs: 60_000 },
  });
});
beforeEach(async () => {
  ({ admin, shopper } = await freshShop(harness));
});
afterAll(() => harness?.close());

const insertBoat = (stock: number | null) => insertProduct(harness.app, { name: 'Jobs boat', priceCents: BOAT_CENTS, stock });

async function paidOrder(productId: string) {
  const order = await openOrder(harness, shopper, productId, BOAT_CENTS);
  await payByCard(harness, order);
  return { orderId: order.orderId, intentId: order.intentId };
}

/** A refund whose every answer (and webhook) is lost: the row stays pending, outcome unknown. */
async function refundWithLostAnswer(orderId: string, key: string) {
  harness.setWebhooksReachable(false);
  await fetch(`${harness.standinUrl}/_faults/drop-response`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ path: '/v1/refunds', count: '3' }),
  });
  const response = await harness.app.inject({
    method: 'POST',
    url: `/api/admin/orders/${orderId}/refund`,
    headers: admin.headers,
    payload: { amountCents: BOAT_CENTS, idempotencyKey: key },
  });
  expect(response.statusCode, response.body).toBe(502);
  harness.setWebhooksReachable(true);
  // The job asks about rows unsettled for a minute: this one was sent a minute ago.
  await harness.app.db
    .updateTable('order_refunds')
    .set({ sent_at: sql<Date>`now() - interval '2 minutes'` })
    .where('order_id', '=', orderId)
    .execute();
}

async function lateRefundWebhook(intentId: string) {
  const charge = (await harness.stripe.paymentIntents.retrieve(intentId)).latest_charge as string;
  const [refund] = (await harness.stripe.refunds.list({ charge })).data;
  const payload = JSON.stringify({ id: `evt_late_${refund!.id}`, object: 'event', type: 'refund.updated', data: { object: refund } });
  const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  expect(response.statusCode).toBe(200);
}

const refundsAtProvider = async (intentId: string) => {
  const charge = (await harness.stripe.paymentIntents.retrieve(intentId)).latest_charge as string;
  return (await harness.stripe.refunds.list({ charge })).data.length;
};

describe('ledger jobs on the queue', () => {
  it('are scheduled: hold expiry every minute, refund settling every five minutes', async () => {
    const { rows } = await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule where name in (${sql.join([
      HOLD_EXPIRY_QUEUE,
      SETTLE_REFUNDS_QUEUE,
    ])}) order by name`.execute(harness.app.db);
    expect(rows).toEqual([
      { name: SETTLE_REFUNDS_QUEUE, cron: '*/5 * * * *' },
      { name: HOLD_EXPIRY_QUEUE, cron: '* * * * *' },
    ]);
  });

  it('settles an unknown-outcome refund by asking the provider; the late webhook then changes nothing', async () => {
    const order = await paidOrder(await insertBoat(null));
    await refundWithLostAnswer(order.orderId, 'job-settle-refund-1');
    expect(await orderMoney(harness.app.db, order.orderId)).toMatchObject({ refundedCents: 0, refundsInFlightCents: BOAT_CENTS });

    await harness.app.jobs.queue!.send(SETTLE_REFUNDS_QUEUE, {});
    await expect
      .poll(async () => (await orderMoney(harness.app.db, order.orderId))!.refundedCents, { timeout: 15_000, interval: 200 })
      .toBe(BOAT_CENTS);
    await lateRefundWebhook(order.intentId);
    expect(await orderMoney(harness.app.db, order.orderId)).toMatchObject({
      refundedCents: BOAT_CENTS,
      refundsInFlightCents: 0,
      heldCents: 0,
    });
    const ledger = await harness.app.db.selectFrom('order_ledger_entries').select('kind').where('order_id', '=', order.orderId).execute();
    expect(ledger.map((row) => row.kind).sort()).toEqual(['card_capture', 'card_refund']);
    expect(await refundsAtProvider(order.intentId)).toBe(1);
  });

  it('a late webhook first, then the job: one refund, the job finds nothing left to do', async () => {
    const order = await paidOrder(await insertBoat(null));
    await refundWithLostAnswer(order.orderId, 'job-settle-refund-2');
    await lateRefundWebhook(order.intentId);
    expect(await orderMoney(harness.app.db, order.orderId)).toMatchObject({ refundedCents: BOAT_CENTS, refundsInFlightCents: 0 });
    await harness.app.jobs.queue!.send(SETTLE_REFUNDS_QUEUE, {});
    // The job has run once its queue is empty again.
    await expect
      .poll(async () => (await harness.app.jobs.counts()).find((q) => q.name === SETTLE_REFUNDS_QUEUE)?.completed ?? 0, {
        timeout: 15_000,
        interval: 200,
      })
      .toBeGreaterThan(0);
    expect(await orderMoney(harness.app.db, order.orderId)).toMatchObject({ refundedCents: BOAT_CENTS, refundsInFlightCents: 0 });
    expect(await refundsAtProvider(order.intentId)).toBe(1);
  });

  it('the hold-expiry job gives back the boat of a checkout whose hold ended', async () => {
    const boat = await insertBoat(1);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers: shopper.headers,
      payload: createBody([{ productId: boat, quantity: 1 }], BOAT_CENTS),
    });
    expect(response.statusCode).toBe(201);
    await harness.app.db
      .updateTable('orders')
      .set({ hold_expires_at: sql<Date>`now() - interval '1 second'` })
      .execute();
    await harness.app.jobs.queue!.send(HOLD_EXPIRY_QUEUE, {});
    await expect
      .poll(
        async () =>
          (await harness.app.db.selectFrom('products').select('stock_reserved').where('id', '=', boat).executeTakeFirstOrThrow())
            .stock_reserved,
        { timeout: 15_000, interval: 200 },
      )
      .toBe(0);
  });
});
