import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditorReference } from '../../../src/features/deposits/deposit-rules.js';
import type { AdminOrder } from '@boatshop/contract';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, insertProduct, startPaymentsHarness, type PaymentsHarness } from '../payments/payments-test-kit.js';
import { freshShop, openOrder, payByCard } from '../../support/card-orders.js';

// Deposits: the balance of a reserved order arrives by bank transfer and an admin records it.
// The order is paid exactly once, whatever order the card's confirmations and the transfers
// arrive in (raced below: real parallel transactions on PostgreSQL, interleaved on PGlite).

const VISA = '4242424242424242';
const YACHT_CENTS = 289_000_000;
const DEPOSIT_CENTS = 28_900_000;
const BALANCE_CENTS = YACHT_CENTS - DEPOSIT_CENTS; // 2.601.000,00 €
const today = () => new Date().toISOString().slice(0, 10);

let harness: PaymentsHarness;
let admin: UserWithSession;
let secondAdmin: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(async () => {
  ({ admin, shopper } = await freshShop(harness, { roles: ['user', 'owner'], displayName: 'Ada Admin' }));
  secondAdmin = await createUserWithSession(harness.app, { roles: ['user', 'owner'], displayName: 'Bo Admin' });
});
afterAll(() => harness?.close());

async function openDepositOrder() {
  const productId = await insertProduct(harness.app, { name: 'Seahaven 58', priceCents: YACHT_CENTS, stock: 1, category: 'yachts' });
  const created = await openOrder(harness, shopper, productId, YACHT_CENTS, 'deposit');
  const order = await harness.app.db
    .selectFrom('orders')
    .select('bank_reference')
    .where('id', '=', created.orderId)
    .executeTakeFirstOrThrow();
  return { ...created, productId, reference: order.bank_reference! };
}

async function reservedOrder() {
  const order = await openDepositOrder();
  await payByCard(harness, order);
  return order;
}

function transfer(body: Record<string, unknown>, who = admin) {
  return harness.app.inject({ method: 'POST', url: '/api/admin/bank-transfers', headers: who.headers, payload: body });
}

async function adminOrder(orderId: string) {
  return (await harness.app.inject({ url: `/api/admin/orders/${orderId}`, headers: admin.headers })).json<AdminOrder>();
}

async function events(orderId: string) {
  return harness.app.db
    .selectFrom('order_events')
    .select(['from_status', 'to_status', 'amount_cents', 'note'])
    .where('order_id', '=', orderId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

describe('POST /api/admin/bank-transfers', () => {
  it('records a part of the balance: the order stays reserved with less due', async () => {
    const order = await reservedOrder();
    const before = await adminOrder(order.orderId);
    expect(before).toMatchObject({
      status: 'reserved',
      paymentReference: order.reference,
      depositCents: DEPOSIT_CENTS,
      balanceDueCents: BALANCE_CENTS,
      overdue: false,
    });
    expect(before.allowedActions).toEqual(expect.arrayContaining(['record_transfer', 'cancel']));
    expect(before.allowedActions).not.toContain('refund');

    const response = await transfer({
      reference: order.reference,
      amountCents: 100_000_000,
      receivedOn: today(),
      bankReference: 'BANK-0001',
    });
    expect(response.statusCode, response.body).toBe(200);
    const after = response.json<AdminOrder>();
    expect(after).toMatchObject({ status: 'reserved', balanceDueCents: BALANCE_CENTS - 100_000_000 });
    expect(after.payments.map((p) => [p.method, p.amountCents, p.providerReference, p.status, p.receivedOn])).toEqual([
      ['card', DEPOSIT_CENTS, order.intentId, 'succeeded', null],
      ['bank_transfer', 100_000_000, 'BANK-0001', 'succeeded', today()],
    ]);
    expect((await events(order.orderId)).at(-1)).toEqual({
      from_status: 'reserved',
      to_status: 'reserved',
      amount_cents: 100_000_000,
      note: 'Bank transfer received',
    });
  });

  it('marks the order paid when the transfers reach the total: the boat is sold and the shopper is told', async () => {
    const order = await reservedOrder();
    const response = await transfer({
      reference: order.reference.replace(/(.{4})/g, '$1 ').toLowerCase(),
      amountCents: BALANCE_CENTS,
      receivedOn: today(),
      bankReference: 'BANK-0002',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'paid',
      balanceDueCents: 0,
      allowedActions: expect.not.arrayContaining(['record_transfer']),
    });

    const product = await harness.app.inject({ url: `/api/products/${order.productId}` });
    expect(product.json()).toMatchObject({ stock: 0, availability: 'sold_out' });
    const shopperView = (await harness.app.inject({ url: `/api/orders/${order.orderId}`, headers: shopper.headers })).json();
    expect(shopperView).toMatchObject({ status: 'paid', paidCents: YACHT_CENTS, balance: null });
    expect(shopperView.timeline.map((e: { status: string; note: string | null }) => [e.status, e.note])).toEqual([
      ['reserved', 'Deposit paid'],
      ['paid', 'Bank transfer received'],
    ]);
    const mails = await harness.app.db.selectFrom('outbox').select('payload').execute();
    expect(mails.map((m) => (m.payload as { template: string }).template).filter((t) => t === 'order_confirmation')).toHaveLength(1);
  });

  it('records the same statement line once, however often it is sent', async () => {
    const order = await reservedOrder();
    const line = { reference: order.reference, amountCents: 50_000_000, receivedOn: today(), bankReference: 'BANK-SAME' };
    const answers = await Promise.all([transfer(line), transfer(line, secondAdmin), transfer(line)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const lines = await harness.app.db.selectFrom('order_payments').select('amount_cents').where('method', '=', 'bank_transfer').execute();
    expect(lines).toEqual([{ amount_cents: 50_000_000 }]);
    expect((await adminOrder(order.orderId)).balanceDueCents).toBe(BALANCE_CENTS - 50_000_000);
  });

  it('refuses bad input with 4xx and records nothing', async () => {
    const order = await reservedOrder();
    const base = { reference: order.reference, amountCents: 1_000, receivedOn: today(), bankReference: 'BANK-BAD' };
    const refused = [
      [{ ...base, amountCents: 0 }, 400],
      [{ ...base, amountCents: -5_000 }, 400],
      [{ ...base, amountCents: 12.5 }, 400],
      [{ ...base, receivedOn: '2026-02-30' }, 400],
      [{ ...base, receivedOn: '23/11/2026' }, 400],
      [{ ...base, receivedOn: '2999-01-01' }, 400],
      [{ ...base, bankReference: '   ' }, 400],
      [{ ...base, reference: 'not a reference' }, 400],
      [{ ...base, reference: `${order.reference.slice(0, -1)}${order.reference.endsWith('1') ? '2' : '1'}` }, 400],
    ] as const;
    for (const [body, status] of refused) {
      const response = await transfer(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().error.code).toBeTruthy();
    }

    const unknown = await transfer({ ...base, reference: creditorReference('539007547034') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'UNKNOWN_REFERENCE', message: 'The reference RF18539007547034 matches no order.' });

    const over = await transfer({ ...base, amountCents: BALANCE_CENTS + 100 });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toEqual({
      code: 'OVERPAYMENT',
      message: '2.601.001,00\u00a0€ is more than the 2.601.000,00\u00a0€ still due.',
    });

    const shopperTries = await transfer(base, shopper);
    expect(shopperTries.statusCode).toBe(403);

    expect(await harness.app.db.selectFrom('order_payments').select('id').where('method', '=', 'bank_transfer').execute()).toEqual([]);
    expect((await adminOrder(order.orderId)).status).toBe('reserved');
  });

  it('answers 409 for an order not awaiting a transfer', async () => {
    const order = await openDepositOrder(); // the deposit is not paid yet
    const response = await transfer({ reference: order.reference, amountCents: 1_000, receivedOn: today(), bankReference: 'BANK-EARLY' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'NOT_AWAITING_TRANSFER',
      message: 'The order is pending; it is not awaiting a bank transfer.',
    });
  });
});

describe('paid exactly once however the confirmations arrive', () => {
  it('races the deposit webhook, the shopper confirmation and two admins recording the final transfer', async () => {
    const order = await openDepositOrder();

    // Keeps pressing while the deposit is not confirmed yet, as an admin would.
    async function recordUntilAccepted(who: UserWithSession, bankReference: string) {
      for (let attempt = 0; ; attempt += 1) {
        const response = await transfer(
          { reference: order.reference, amountCents: BALANCE_CENTS, receivedOn: today(), bankReference },
          who,
        );
        if (response.statusCode !== 409 || !response.json().error.message.includes('pending') || attempt > 500) return response;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    const [browser, confirm, first, second] = await Promise.all([
      confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, VISA),
      (async () => {
        // The shopper's page confirms as soon as the browser says the card went through.
        for (let attempt = 0; attempt < 500; attempt += 1) {
          const response = await harness.app.inject({
            method: 'POST',
            url: '/api/payments/confirm',
            headers: shopper.headers,
            payload: { orderId: order.orderId },
          });
          if (response.json().status !== 'pending') return response;
          await new Promise((resolve) => setImmediate(resolve));
        }
        throw new Error('the deposit was never confirmed');
      })(),
      recordUntilAccepted(admin, 'BANK-A'),
      recordUntilAccepted(secondAdmin, 'BANK-B'),
    ]);
    await harness.webhookDelivered('payment_intent.succeeded', order.intentId);

    expect(browser.body.status).toBe('succeeded');
    expect(['reserved', 'paid']).toContain(confirm.json().status);
    const outcomes = [first, second].map((r) => [r.statusCode, r.statusCode === 200 ? 'ok' : r.json().error.code]).sort();
    // One transfer completes the order; the other is refused as more than due or as not awaited.
    expect(outcomes[0]).toEqual([200, 'ok']);
    expect([
      [409, 'NOT_AWAITING_TRANSFER'],
      [422, 'OVERPAYMENT'],
    ]).toContainEqual(outcomes[1]);

    const history = await events(order.orderId);
    expect(history.map((e) => `${e.from_status}->${e.to_status}`)).toEqual(['pending->reserved', 'reserved->paid']);
    const lines = await harness.app.db
      .selectFrom('order_payments')
      .select(['method', 'status', 'amount_cents'])
      .where('order_id', '=', order.orderId)
      .orderBy('method')
      .execute();
    expect(lines).toEqual([
      { method: 'bank_transfer', status: 'succeeded', amount_cents: BALANCE_CENTS },
      { method: 'card', status: 'succeeded', amount_cents: DEPOSIT_CENTS },
    ]);
    const row = await harness.app.db
      .selectFrom('orders')
      .select(['status', 'stock_status'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'paid', stock_status: 'sold' });
    const stock = await harness.app.db
      .selectFrom('products')
      .select(['stock_on_hand', 'stock_reserved'])
      .where('id', '=', order.productId)
      .executeTakeFirstOrThrow();
    expect(stock).toEqual({ stock_on_hand: 0, stock_reserved: 0 });
    const confirmations = await harness.app.db.selectFrom('outbox').select('payload').execute();
    expect(confirmations.filter((m) => (m.payload as { template: string }).template === 'order_confirmation')).toHaveLength(1);
  });
});

describe('cancelling a reserved order', () => {
  it('needs the deposit choice', async () => {
    const order = await reservedOrder();
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/cancel`,
      headers: admin.headers,
      payload: { reason: 'Overdue' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('DEPOSIT_CHOICE_REQUIRED');
    expect((await adminOrder(order.orderId)).status).toBe('reserved');
  });

  it('keeps the deposit when told to: no refund, the boat back on sale, the choice and reason recorded', async () => {
    const order = await reservedOrder();
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/cancel`,
      headers: admin.headers,
      payload: { reason: 'Balance not paid', deposit: 'keep' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'cancelled', refunds: [] });
    expect((await events(order.orderId)).at(-1)).toMatchObject({
      from_status: 'reserved',
      to_status: 'cancelled',
      note: 'Deposit kept: Balance not paid',
    });
    const product = await harness.app.inject({ url: `/api/products/${order.productId}` });
    expect(product.json()).toMatchObject({ stock: 1, availability: 'in_stock' });
  });

  it('refunds the deposit to the card when told to', async () => {
    const order = await reservedOrder();
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/cancel`,
      headers: admin.headers,
      payload: { reason: 'Buyer withdrew', deposit: 'refund' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const cancelled = response.json<AdminOrder>();
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled.refunds.map((r) => [r.amountCents, r.status])).toEqual([[DEPOSIT_CENTS, 'succeeded']]);
    expect((await events(order.orderId)).at(-1)).toMatchObject({
      to_status: 'cancelled',
      amount_cents: DEPOSIT_CENTS,
      note: 'Deposit refunded: Buyer withdrew',
    });
    const intent = await harness.stripe.paymentIntents.retrieve(order.intentId);
    const refunds = await harness.stripe.refunds.list({ charge: intent.latest_charge as string, limit: 100 });
    expect(refunds.data.map((refund) => refund.amount)).toEqual([DEPOSIT_CENTS]);
  });
});

describe('refunds of an order paid by deposit and transfer', () => {
  it('refunds by card up to the deposit and sends the bank part back to the bank', async () => {
    const order = await reservedOrder();
    await transfer({ reference: order.reference, amountCents: BALANCE_CENTS, receivedOn: today(), bankReference: 'BANK-FULL' });
    const paid = await adminOrder(order.orderId);
    expect(paid).toMatchObject({ status: 'paid', refundableCents: DEPOSIT_CENTS });

    const tooMuch = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/refund`,
      headers: admin.headers,
      payload: { amountCents: DEPOSIT_CENTS + 1, idempotencyKey: 'refund-too-much' },
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().error).toEqual({
      code: 'REFUND_BY_BANK_TRANSFER',
      message:
        '2.601.000,00\u00a0€ of this order was paid by bank transfer and cannot be refunded to a card: return it to the buyer by bank transfer. ' +
        'At most 289.000,00\u00a0€ can be refunded to the card here.',
    });
    const cancel = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/cancel`,
      headers: admin.headers,
      payload: {},
    });
    expect(cancel.statusCode).toBe(422);
    expect(cancel.json().error.code).toBe('REFUND_BY_BANK_TRANSFER');

    const part = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/refund`,
      headers: admin.headers,
      payload: { amountCents: 1_000_000, idempotencyKey: 'refund-part-1' },
    });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ status: 'partially_refunded', refundableCents: DEPOSIT_CENTS - 1_000_000 });
  });
});

describe('GET /api/admin/orders for deposits', () => {
  it('lists reserved orders and, with overdue=true, those past their due date', async () => {
    const late = await reservedOrder();
    await harness.app.db.updateTable('orders').set({ balance_due_on: '2020-01-01' }).where('id', '=', late.orderId).execute();

    const reserved = await harness.app.inject({ url: '/api/admin/orders?status=reserved', headers: admin.headers });
    expect(reserved.json().data).toEqual([
      expect.objectContaining({ id: late.orderId, status: 'reserved', balanceDueCents: BALANCE_CENTS, overdue: true }),
    ]);
    const overdue = await harness.app.inject({ url: '/api/admin/orders?overdue=true', headers: admin.headers });
    expect(overdue.json().data.map((o: { id: string }) => o.id)).toEqual([late.orderId]);

    await harness.app.db.updateTable('orders').set({ balance_due_on: '2999-01-01' }).where('id', '=', late.orderId).execute();
    const none = await harness.app.inject({ url: '/api/admin/orders?overdue=true', headers: admin.headers });
    expect(none.json().data).toEqual([]);
    expect(await adminOrder(late.orderId)).toMatchObject({ overdue: false, balanceDueOn: '2999-01-01' });
    const shopperView = (await harness.app.inject({ url: `/api/orders/${late.orderId}`, headers: shopper.headers })).json();
    expect(shopperView.balance).toMatchObject({ dueOn: '2999-01-01', overdue: false });
  });
});
