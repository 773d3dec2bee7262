import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OrderLedger } from '@boatshop/contract';
import { type UserWithSession } from '../../helpers/users.js';
import { insertProduct, startPaymentsHarness, type PaymentsHarness } from '../payments/payments-test-kit.js';
import { freshShop, openOrder, payByCard } from '../../support/card-orders.js';

// The admin's view of an order's ledger, and bank refunds recorded by hand: bank money goes back
// by bank, so a reserved order holding a transfer can be cancelled either way.

const YACHT_CENTS = 289_000_000;
const DEPOSIT_CENTS = 28_900_000;
const TODAY = new Date().toISOString().slice(0, 10);

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

async function reservedYacht() {
  const productId = await insertProduct(harness.app, { name: 'Seahaven 58', priceCents: YACHT_CENTS, stock: 1, category: 'yachts' });
  const order = await openOrder(harness, shopper, productId, YACHT_CENTS, 'deposit');
  await payByCard(harness, order);
  const { orderId } = order;
  const { bank_reference } = await harness.app.db
    .selectFrom('orders')
    .select('bank_reference')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return { orderId, bankReference: bank_reference! };
}

const ledger = (orderId: string, who = admin) =>
  harness.app.inject({ method: 'GET', url: `/api/admin/orders/${orderId}/ledger`, headers: who.headers });
const bankRefund = (orderId: string, payload: object) =>
  harness.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/bank-refund`, headers: admin.headers, payload });

describe('GET /api/admin/orders/:id/ledger and POST /bank-refund', () => {
  it('shows each movement with the running balance, and lets bank money go back so the reserved order can be cancelled', async () => {
    const { orderId, bankReference } = await reservedYacht();
    const transfer = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/bank-transfers',
      headers: admin.headers,
      payload: { reference: bankReference, amountCents: 100_000_000, receivedOn: TODAY, bankReference: 'STMT-IN-1' },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);

    const before = (await ledger(orderId)).json<OrderLedger>();
    expect(before.entries.map((e) => [e.kind, e.amountCents, e.balanceCents])).toEqual([
      ['card_capture', DEPOSIT_CENTS, DEPOSIT_CENTS],
      ['bank_transfer_in', 100_000_000, DEPOSIT_CENTS + 100_000_000],
    ]);
    expect(before.money).toMatchObject({
      receivedCents: DEPOSIT_CENTS + 100_000_000,
      atRiskCents: 0,
      heldCents: DEPOSIT_CENTS + 100_000_000,
    });

    const cancelRefused = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: admin.headers,
      payload: { deposit: 'refund' },
    });
    expect(cancelRefused.json().error.code).toBe('REFUND_BY_BANK_TRANSFER');

    const tooMuch = await bankRefund(orderId, { amountCents: 200_000_000, refundedOn: TODAY, bankReference: 'STMT-OUT-1' });
    expect(tooMuch.statusCode).toBe(422);
    const responses = await Promise.all(
      [1, 2].map(() =>
        bankRefund(orderId, { amountCents: 100_000_000, refundedOn: TODAY, bankReference: 'STMT-OUT-1', reason: 'Buyer withdrew' }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const after = responses[1]!.json<OrderLedger>();
    expect(after.entries.map((e) => [e.kind, e.amountCents, e.balanceCents, e.bookedOn])).toEqual([
      ['card_capture', DEPOSIT_CENTS, DEPOSIT_CENTS, TODAY],
      ['bank_transfer_in', 100_000_000, DEPOSIT_CENTS + 100_000_000, TODAY],
      ['bank_refund_out', -100_000_000, DEPOSIT_CENTS, TODAY],
    ]);
    const reused = await bankRefund(orderId, { amountCents: 5_000, refundedOn: TODAY, bankReference: 'STMT-OUT-1' });
    expect(reused.json().error.code).toBe('BANK_REFERENCE_USED');

    const cancel = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: admin.headers,
      payload: { deposit: 'refund' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().status).toBe('cancelled');
    expect((await ledger(orderId)).json<OrderLedger>().money).toMatchObject({ heldCents: 0, refundedCents: DEPOSIT_CENTS + 100_000_000 });
  });

  it('is for admins only, and validates the body', async () => {
    const { orderId } = await reservedYacht();
    expect((await ledger(orderId, shopper)).statusCode).toBe(403);
    const bad = await bankRefund(orderId, { amountCents: 0, refundedOn: '2020-13-01', bankReference: ' ' });
    expect(bad.statusCode).toBe(400);
    expect((await ledger('not-a-uuid')).statusCode).toBe(404);
  });
});
