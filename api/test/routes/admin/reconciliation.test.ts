import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReconciliationAlert } from '@boatshop/contract';
import { DEV_STRIPE } from '../../../src/config.js';
import { type UserWithSession } from '../../helpers/users.js';
import { insertProduct, startPaymentsHarness, type PaymentsHarness } from '../payments/payments-test-kit.js';
import { freshShop, openOrder, payByCard } from '../../support/card-orders.js';

// The reconciliation: each order's ledger against the provider (the Stripe stand-in) and the bank
// lines recorded; every difference an alert, raised once, resolved by an admin with a reason.

const BOAT_CENTS = 1_000_000;

let harness: PaymentsHarness;
let owner: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness();
});
beforeEach(async () => {
  ({ admin: owner, shopper } = await freshShop(harness, { roles: ['user', 'owner'] }));
});
afterAll(() => harness?.close());

async function paidOrder() {
  const productId = await insertProduct(harness.app, { name: 'Reconciled', priceCents: BOAT_CENTS });
  const order = await openOrder(harness, shopper, productId, BOAT_CENTS);
  await payByCard(harness, order);
  return { orderId: order.orderId, intentId: order.intentId };
}

const run = (who = owner) => harness.app.inject({ method: 'POST', url: '/api/admin/reconciliation/run', headers: who.headers });
const alerts = async (query = '') =>
  (await harness.app.inject({ method: 'GET', url: `/api/admin/reconciliation/alerts${query}`, headers: owner.headers })).json<{
    data: ReconciliationAlert[];
  }>().data;

describe('reconciliation', () => {
  it('finds nothing when the ledger agrees with the provider and the bank', async () => {
    await paidOrder();
    const response = await run();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ checked: 1, raised: 0, open: 0 });
  });

  it('raises a refund made at the provider that the shop never heard of, once, and an admin resolves it with a reason', async () => {
    const order = await paidOrder();
    // Refunded in the provider's dashboard while the webhooks did not get through.
    harness.setWebhooksReachable(false);
    await fetch(`${harness.standinUrl}/_dashboard/payment_intents/${order.intentId}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_STRIPE.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ amount: '300000' }),
    });
    expect((await run()).json()).toMatchObject({ raised: 1, open: 1 });
    const [alert] = await alerts();
    expect(alert).toMatchObject({ orderId: order.orderId, kind: 'card_refunds', ledgerCents: 0, sourceCents: 300_000, resolvedAt: null });
    expect(alert!.detail).toBe('The ledger holds 0,00\u00a0€ of card refunds made by the provider; the provider says 3.000,00\u00a0€.');
    // The daily run finds the same difference: no second alert.
    expect((await run()).json()).toMatchObject({ raised: 0, open: 1 });

    const resolve = (reason: string) =>
      harness.app.inject({
        method: 'POST',
        url: `/api/admin/reconciliation/alerts/${alert!.id}/resolve`,
        headers: owner.headers,
        payload: { reason },
      });
    expect((await resolve('   ')).statusCode).toBe(400);
    const resolved = await resolve('Refund made by phone with the provider; booked by hand');
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ resolution: 'Refund made by phone with the provider; booked by hand' });
    expect((await resolve('again')).statusCode).toBe(409);
    expect(await alerts()).toEqual([]);
    expect(await alerts('?open=false')).toHaveLength(1);
    const audit = await harness.app.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'reconciliation.alert_resolved')
      .execute();
    expect(audit).toEqual([{ action: 'reconciliation.alert_resolved', target_id: order.orderId }]);
  });

  it('raises a bank line the ledger does not hold', async () => {
    const order = await paidOrder();
    await harness.app.db
      .insertInto('order_payments')
      .values({
        order_id: order.orderId,
        method: 'bank_transfer',
        amount_cents: 50_000,
        provider_reference: `bank:recon-${order.orderId}`,
        status: 'succeeded',
      } as never)
      .execute();
    expect((await run()).json()).toMatchObject({ raised: 1 });
    expect(await alerts()).toEqual([expect.objectContaining({ kind: 'bank_in', ledgerCents: 0, sourceCents: 50_000 })]);
  });

  it('lets only staff who may reconcile run it or resolve alerts', async () => {
    expect((await run(shopper)).statusCode).toBe(403);
    const anonymous = await harness.app.inject({ method: 'GET', url: '/api/admin/reconciliation/alerts' });
    expect([401, 403]).toContain(anonymous.statusCode);
    const row = await sql<{ n: number }>`select count(*)::int as n from reconciliation_alerts`.execute(harness.app.db);
    expect(row.rows[0]!.n).toBe(0);
  });
});
