import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminOrder } from '@boatshop/contract';
import { orderMoney } from '../../../src/features/ledger/ledger.js';
import { settleUnsettledRefunds } from '../../../src/features/orders/refund-settlement.js';
import { DEV_STRIPE } from '../../../src/config.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, insertProduct, startPaymentsHarness, type PaymentsHarness } from './payments-test-kit.js';
import { createOrder, freshShop, openOrder, payByCard } from '../../support/card-orders.js';

// Each finding of the money review, reproduced through the API against the Stripe stand-in:
// money and boats stay accounted for when a payment leaves the happy path.

const VISA = '4242424242424242';
const DECLINED = '4000000000000002';
const REFUND_PENDING = '4000000000007726';
const YACHT_CENTS = 289_000_000;
const DEPOSIT_CENTS = 28_900_000;

let harness: PaymentsHarness;
let admin: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(async () => {
  ({ admin, shopper } = await freshShop(harness));
});
afterAll(() => harness?.close());

const insertBoat = (priceCents: number, stock: number | null = 1, category: 'yachts' | 'sailing-boats' = 'yachts') =>
  insertProduct(harness.app, { name: 'Seahaven 58', priceCents, stock, category });

const create = (who: UserWithSession, productId: string, totalCents: number, mode?: 'deposit') =>
  createOrder(harness, who, productId, totalCents, mode);

const opened = (who: UserWithSession, productId: string, totalCents: number, mode?: 'deposit') =>
  openOrder(harness, who, productId, totalCents, mode);

const pay = (order: { clientSecret: string; intentId: string }, card = VISA) => payByCard(harness, order, card);

const dashboard = (path: string, form: Record<string, string> = {}) =>
  fetch(`${harness.standinUrl}/_dashboard/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_STRIPE.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  }).then((r) => r.json() as Promise<{ id: string }>);

const act = (orderId: string, action: string, payload: object) =>
  harness.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/${action}`, headers: admin.headers, payload });

const adminOrder = async (orderId: string) =>
  (await harness.app.inject({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: admin.headers })).json<AdminOrder>();

const money = async (orderId: string) => (await orderMoney(harness.app.db, orderId))!;

async function bankReferenceOf(orderId: string) {
  const row = await harness.app.db.selectFrom('orders').select('bank_reference').where('id', '=', orderId).executeTakeFirstOrThrow();
  return row.bank_reference!;
}

function recordTransfer(reference: string, amountCents: number, bankReference: string) {
  return harness.app.inject({
    method: 'POST',
    url: '/api/admin/bank-transfers',
    headers: admin.headers,
    payload: { reference, amountCents, receivedOn: new Date().toISOString().slice(0, 10), bankReference },
  });
}

describe('money review findings', () => {
  it('a deposit declined once, then paid, keeps the yacht held: a second shopper cannot reserve it', async () => {
    const yacht = await insertBoat(YACHT_CENTS, 1);
    const order = await opened(shopper, yacht, YACHT_CENTS, 'deposit');
    const declined = await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, DECLINED);
    expect(declined.status).toBe(402);
    await harness.webhookDelivered('payment_intent.payment_failed', order.intentId);
    await pay(order);
    expect((await adminOrder(order.orderId)).status).toBe('reserved');

    const product = await harness.app.db
      .selectFrom('products')
      .select(['stock_on_hand', 'stock_reserved'])
      .where('id', '=', yacht)
      .executeTakeFirstOrThrow();
    expect(product).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
    const second = await create(await createUserWithSession(harness.app), yacht, YACHT_CENTS, 'deposit');
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('OUT_OF_STOCK');
  });

  it("a chargeback of a reserved order's deposit puts it at risk: the balance cannot make it paid, nor can it ship", async () => {
    const yacht = await insertBoat(YACHT_CENTS, 1);
    const order = await opened(shopper, yacht, YACHT_CENTS, 'deposit');
    await pay(order);
    const dispute = await dashboard(`payment_intents/${order.intentId}/dispute`, { reason: 'fraudulent' });
    await harness.webhookDelivered('charge.dispute.created', dispute.id);
    expect(await money(order.orderId)).toMatchObject({ atRiskCents: DEPOSIT_CENTS, heldCents: 0 });
    expect((await adminOrder(order.orderId)).status).toBe('disputed');

    const transfer = await recordTransfer(await bankReferenceOf(order.orderId), YACHT_CENTS - DEPOSIT_CENTS, 'STMT-1');
    expect(transfer.statusCode).toBe(409);
    const ship = await act(order.orderId, 'ship', {});
    expect(ship.statusCode).toBe(409);
    expect((await adminOrder(order.orderId)).status).toBe('disputed');
  });

  it("a provider refund of a reserved order's deposit leaves the deposit due: the balance alone does not make it paid", async () => {
    const yacht = await insertBoat(YACHT_CENTS, 1);
    const order = await opened(shopper, yacht, YACHT_CENTS, 'deposit');
    await pay(order);
    await dashboard(`payment_intents/${order.intentId}/refund`, {});
    const chargeId = (await harness.stripe.paymentIntents.retrieve(order.intentId)).latest_charge as string;
    await harness.webhookDelivered('charge.refunded', chargeId);
    expect(await money(order.orderId)).toMatchObject({ receivedCents: DEPOSIT_CENTS, refundedCents: DEPOSIT_CENTS, heldCents: 0 });

    const balance = await recordTransfer(await bankReferenceOf(order.orderId), YACHT_CENTS - DEPOSIT_CENTS, 'STMT-2');
    expect(balance.statusCode, balance.body).toBe(200);
    expect((await adminOrder(order.orderId)).status).toBe('reserved');
    expect((await act(order.orderId, 'ship', {})).statusCode).toBe(409);
  });

  it('a refund whose answer was lost (timeout) refunds once: the row stays pending, the retry reuses the key, the job settles it', async () => {
    const boat = await insertBoat(1_000_000, null, 'sailing-boats');
    const order = await opened(shopper, boat, 1_000_000);
    await pay(order);
    // The provider makes the refund but every answer (and the SDK's own retries) is cut off, and
    // its webhooks do not get through either: nothing tells the shop what happened.
    harness.setWebhooksReachable(false);
    await fetch(`${harness.standinUrl}/_faults/drop-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ path: '/v1/refunds', count: '3' }),
    });
    const first = await act(order.orderId, 'refund', { amountCents: 400_000, idempotencyKey: 'timeout-refund-1' });
    expect(first.statusCode).toBe(502);
    const rows = await harness.app.db.selectFrom('order_refunds').select(['id', 'status']).where('order_id', '=', order.orderId).execute();
    expect(rows).toEqual([{ id: expect.any(String), status: 'pending' }]);

    // The admin tries again under the same key: the provider answers the refund it made.
    harness.setWebhooksReachable(true);
    const retry = await act(order.orderId, 'refund', { amountCents: 400_000, idempotencyKey: 'timeout-refund-1' });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await settleUnsettledRefunds(harness.app.db, harness.app.payments, harness.app.log, 0)).toBe(0);

    const chargeId = (await harness.stripe.paymentIntents.retrieve(order.intentId)).latest_charge as string;
    const atStripe = await harness.stripe.refunds.list({ charge: chargeId });
    expect(atStripe.data.map((r) => r.amount)).toEqual([400_000]);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 400_000, refundsInFlightCents: 0 });
    expect((await adminOrder(order.orderId)).status).toBe('partially_refunded');
  });

  it('an unknown refund outcome is settled by the job asking the provider, without an admin', async () => {
    const boat = await insertBoat(1_000_000, null, 'sailing-boats');
    const order = await opened(shopper, boat, 1_000_000);
    await pay(order);
    harness.setWebhooksReachable(false);
    await fetch(`${harness.standinUrl}/_faults/drop-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ path: '/v1/refunds', count: '3' }),
    });
    expect((await act(order.orderId, 'refund', { amountCents: 1_000_000, idempotencyKey: 'timeout-refund-2' })).statusCode).toBe(502);
    harness.setWebhooksReachable(true);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 0, refundsInFlightCents: 1_000_000 });

    expect(await settleUnsettledRefunds(harness.app.db, harness.app.payments, harness.app.log, 0)).toBe(1);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 1_000_000, refundsInFlightCents: 0 });
    expect((await adminOrder(order.orderId)).status).toBe('refunded');
    const chargeId = (await harness.stripe.paymentIntents.retrieve(order.intentId)).latest_charge as string;
    expect((await harness.stripe.refunds.list({ charge: chargeId })).data).toHaveLength(1);
  });

  it('a refund answered pending is not booked until it succeeds, and one that fails later books nothing', async () => {
    const boat = await insertBoat(1_000_000, null, 'sailing-boats');
    const order = await opened(shopper, boat, 1_000_000);
    await pay(order, REFUND_PENDING);
    const response = await act(order.orderId, 'refund', { amountCents: 300_000, idempotencyKey: 'pending-refund-1' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 0, refundsInFlightCents: 300_000 });
    expect((await adminOrder(order.orderId)).status).toBe('paid');

    const refund = (await harness.app.db.selectFrom('order_refunds').select('provider_reference').executeTakeFirstOrThrow())
      .provider_reference!;
    await dashboard(`refunds/${refund}/settle`, { status: 'failed' });
    await harness.webhookDelivered('refund.updated', refund);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 0, refundsInFlightCents: 0 });
    expect((await harness.app.db.selectFrom('order_refunds').select('status').executeTakeFirstOrThrow()).status).toBe('failed');

    await act(order.orderId, 'refund', { amountCents: 300_000, idempotencyKey: 'pending-refund-2' });
    const second = (
      await harness.app.db
        .selectFrom('order_refunds')
        .select('provider_reference')
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
    ).provider_reference!;
    await dashboard(`refunds/${second}/settle`, { status: 'succeeded' });
    await harness.webhookDelivered('refund.updated', second);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 300_000, refundsInFlightCents: 0 });
    expect((await adminOrder(order.orderId)).status).toBe('partially_refunded');
  });

  it("a cancellation's refund in flight blocks shipping and bank transfers until it settles", async () => {
    const boat = await insertBoat(1_000_000, null, 'sailing-boats');
    const order = await opened(shopper, boat, 1_000_000);
    await pay(order, REFUND_PENDING);
    expect((await act(order.orderId, 'cancel', { reason: 'Buyer changed mind' })).statusCode).toBe(200);
    expect(await money(order.orderId)).toMatchObject({ cancelInFlight: true, refundsInFlightCents: 1_000_000 });
    const ship = await act(order.orderId, 'ship', {});
    expect(ship.statusCode).toBe(409);
    expect(ship.json().error.code).toBe('MONEY_PRECONDITION');

    const refund = (await harness.app.db.selectFrom('order_refunds').select('provider_reference').executeTakeFirstOrThrow())
      .provider_reference!;
    await dashboard(`refunds/${refund}/settle`, { status: 'succeeded' });
    await harness.webhookDelivered('refund.updated', refund);
    expect(await adminOrder(order.orderId)).toMatchObject({ status: 'cancelled' });
    expect(await money(order.orderId)).toMatchObject({ heldCents: 0 });
  });

  it('a refund settled while a dispute is open leaves the won dispute to close on the refunded order, not on paid', async () => {
    const boat = await insertBoat(1_000_000, null, 'sailing-boats');
    const order = await opened(shopper, boat, 1_000_000);
    await pay(order, REFUND_PENDING);
    expect((await act(order.orderId, 'refund', { amountCents: 250_000, idempotencyKey: 'refund-under-dispute' })).statusCode).toBe(200);
    const dispute = await dashboard(`payment_intents/${order.intentId}/dispute`, { reason: 'fraudulent' });
    await harness.webhookDelivered('charge.dispute.created', dispute.id);
    expect((await adminOrder(order.orderId)).status).toBe('disputed');

    // The refund asked for before the dispute succeeds while it is open: booked, the order stays disputed.
    const refund = (await harness.app.db.selectFrom('order_refunds').select('provider_reference').executeTakeFirstOrThrow())
      .provider_reference!;
    await dashboard(`refunds/${refund}/settle`, { status: 'succeeded' });
    await harness.webhookDelivered('refund.updated', refund);
    expect(await money(order.orderId)).toMatchObject({ refundedCents: 250_000 });
    expect((await adminOrder(order.orderId)).status).toBe('disputed');

    await dashboard(`disputes/${dispute.id}/close`, { status: 'won' });
    const closing = await harness.webhookDelivered('charge.dispute.closed', dispute.id);
    expect(closing.statusCode).toBe(200);
    expect((await adminOrder(order.orderId)).status).toBe('partially_refunded');
    expect(await money(order.orderId)).toMatchObject({ atRiskCents: 0, refundedCents: 250_000 });
  });

  it('charge.dispute.closed before .created converges: a lost dispute refunds the order, the late opening changes nothing', async () => {
    const boat = await insertBoat(1_000_000, null, 'sailing-boats');
    const order = await opened(shopper, boat, 1_000_000);
    await pay(order);
    harness.setWebhooksReachable(false);
    const openedDispute = await dashboard(`payment_intents/${order.intentId}/dispute`, {});
    const closedDispute = await dashboard(`disputes/${openedDispute.id}/close`, { status: 'lost' });
    harness.setWebhooksReachable(true);
    const event = (type: string, object: object) => ({ id: `evt_${type}_${openedDispute.id}`, object: 'event', type, data: { object } });
    const byType = (type: string) => (type === 'charge.dispute.closed' ? event(type, closedDispute) : event(type, openedDispute));
    const deliver = async (body: object) => {
      const payload = JSON.stringify(body);
      const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
      const response = await harness.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
      expect(response.statusCode).toBe(200);
    };
    await deliver(byType('charge.dispute.closed'));
    expect(await adminOrder(order.orderId)).toMatchObject({ status: 'refunded' });
    await deliver(byType('charge.dispute.created'));
    expect(await adminOrder(order.orderId)).toMatchObject({ status: 'refunded' });
    expect(await money(order.orderId)).toMatchObject({ atRiskCents: 0, lostCents: 1_000_000, heldCents: 0 });
  });
});
