import { sql } from 'kysely';
import { expect } from 'vitest';
import { orderMoney } from '../../src/features/ledger/ledger.js';
import { settleUnsettledRefunds } from '../../src/features/orders/order-refunds.js';
import { heldBack } from './ledger-model-commands.js';
import { expectNo5xx, inject, world, type Model, type Real } from './ledger-model-world.js';

// After each sequence: deliver what was held back, let refunds settle, then check what must always hold.

/** Every delivery the stand-in has under way answered (held ones refused): no sleeping, no polling. */
const settleDeliveries = () => world.harness.webhooksSettled();

/** After a sequence: every held webhook delivered, every order confirmed, every refund settled. */
export async function quiesce(m: Model, r: Real) {
  world.harness.setWebhooksReachable(true);
  await settleDeliveries();
  for (const event of heldBack(m)) expectNo5xx('webhook', await world.harness.redeliver(event));
  for (const ref of m.orders) {
    await inject('confirm', {
      method: 'POST',
      url: '/api/payments/confirm',
      headers: r.shoppers[ref.shopper]!.headers,
      payload: { orderId: ref.orderId },
    });
  }
  await settleUnsettledRefunds(world.harness.app.db, world.harness.app.payments, world.harness.app.log, 0);
  await settleDeliveries();
  for (const event of heldBack(m)) expectNo5xx('webhook', await world.harness.redeliver(event));
}

export async function checkInvariants(m: Model, r: Real) {
  const db = world.harness.app.db;
  for (const name of m.log) {
    const kind = name.replace(/\([\s\S]*$/, '').replace(/ shuffled.*$/, '');
    world.reached.set(`cmd ${kind}`, (world.reached.get(`cmd ${kind}`) ?? 0) + 1);
  }
  for (const ref of m.orders) {
    const money = (await orderMoney(db, ref.orderId))!;
    const order = await db.selectFrom('orders').select(['status', 'stock_status']).where('id', '=', ref.orderId).executeTakeFirstOrThrow();
    const intent = await world.harness.stripe.paymentIntents.retrieve(ref.intentId);
    const charge = intent.latest_charge ? { id: intent.latest_charge as string } : null;
    const tag = `order ${ref.orderId} (${order.status}, stock ${order.stock_status})`;
    const key = `${ref.product} ${order.status}${order.stock_status === 'short' ? ' short' : ''}`;
    world.reached.set(key, (world.reached.get(key) ?? 0) + 1);

    // Card money: what the provider captured is in the ledger, or kept as an unmatched payment.
    if (intent.status === 'succeeded') {
      const unmatched = await db.selectFrom('unmatched_payments').select('id').where('provider_reference', '=', ref.intentId).execute();
      if (unmatched.length === 0) expect(money.cardReceivedCents, `${tag}: capture booked`).toBe(intent.amount);
    } else {
      expect(money.cardReceivedCents, `${tag}: nothing captured`).toBe(0);
    }
    // Card refunds: the ledger's equal the provider's succeeded refunds; none left unsettled.
    if (charge) {
      const refunds = await world.harness.stripe.refunds.list({ charge: charge.id, limit: 100 });
      const succeeded = refunds.data.filter((x) => x.status === 'succeeded').reduce((sum, x) => sum + x.amount, 0);
      const inFlight = refunds.data
        .filter((x) => x.status === 'pending' || x.status === 'requires_action')
        .reduce((s, x) => s + x.amount, 0);
      expect(money.cardRefundedCents, `${tag}: card refunds`).toBe(succeeded);
      expect(money.refundsInFlightCents, `${tag}: refunds in flight`).toBe(inFlight);
      expect(succeeded + inFlight, `${tag}: provider refunded beyond the charge`).toBeLessThanOrEqual(intent.amount);
      // Disputes: what is open at the provider is at risk in the ledger.
      const disputes = m.disputes.filter((d) => d.orderId === ref.orderId);
      const open = disputes.filter((d) => !d.closed).length;
      if (open === 0) expect(money.atRiskCents, `${tag}: at risk`).toBe(0);
    }
    // Bank: the lines recorded, in and out.
    expect(money.bankReceivedCents, `${tag}: bank in`).toBe(m.bankIn.get(ref.orderId) ?? 0);
    expect(money.bankRefundedCents, `${tag}: bank out`).toBe(m.bankOut.get(ref.orderId) ?? 0);
    // Never refunded beyond received.
    expect(money.refundedCents + money.refundsInFlightCents, `${tag}: refunded beyond received`).toBeLessThanOrEqual(money.receivedCents);
    // Shipped or delivered: the money is all there (a dispute may open later: then it is disputed).
    if (order.status === 'shipped' || order.status === 'delivered') {
      expect(money.collectedCents, `${tag}: shipped with money missing`).toBeGreaterThanOrEqual(money.totalCents);
      expect(money.atRiskCents).toBe(0);
    }
    // Paid or beyond and not short: the order holds its boat as sold.
    if (order.status === 'paid' && order.stock_status !== 'short') expect(order.stock_status, tag).toBe('sold');
    // Closed orders hold nothing.
    if (['cancelled', 'expired', 'refunded'].includes(order.status)) expect(order.stock_status, tag).not.toBe('reserved');
  }
  // One-off boats: held by at most one open order, never sold twice, counters agree.
  for (const productId of [r.boat, r.yacht]) {
    const product = await db
      .selectFrom('products')
      .select(['stock_on_hand', 'stock_reserved'])
      .where('id', '=', productId)
      .executeTakeFirstOrThrow();
    const holders = await db
      .selectFrom('orders as o')
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .select(['o.id', 'o.status', 'o.stock_status'])
      .where('i.product_id', '=', productId)
      .where('o.stock_status', 'in', ['reserved', 'sold'])
      .execute();
    const sold = holders.filter((o) => o.stock_status === 'sold').length;
    const reserved = holders.filter((o) => o.stock_status === 'reserved');
    expect(sold + reserved.length, `boat ${productId} held or sold by ${JSON.stringify(holders)}`).toBeLessThanOrEqual(1);
    expect(product.stock_reserved, `boat ${productId} reserved counter`).toBe(reserved.length);
    expect(product.stock_on_hand, `boat ${productId} on hand`).toBe(1 - sold);
    for (const holder of reserved) expect(['pending', 'failed', 'reserved', 'disputed'], `holder ${holder.id}`).toContain(holder.status);
  }
  // Each e-mail at most once per event: no two messages of one template for one order, except refunds.
  if (m.orders.length === 0) return;
  const mails = await db
    .selectFrom('outbox')
    .select([
      sql<string>`payload->>'template'`.as('template'),
      sql<string>`payload->>'orderId'`.as('order_id'),
      sql<number>`count(*)::int`.as('n'),
    ])
    .where(
      sql<string>`payload->>'orderId'`,
      'in',
      m.orders.map((o) => o.orderId),
    )
    .where(sql<string>`payload->>'template'`, 'in', [
      'order_confirmation',
      'deposit_received',
      'boat_unavailable',
      'order_cancelled',
      'order_shipped',
    ])
    .groupBy([sql`payload->>'template'`, sql`payload->>'orderId'`])
    .execute();
  for (const row of mails) expect(row.n, `${row.template} for ${row.order_id} sent ${row.n} times`).toBe(1);
}
