import fc from 'fast-check';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { DEV_STRIPE } from '../../src/config.js';
import { orderMoney } from '../../src/features/ledger/ledger.js';
import { expirePendingOrders } from '../../src/features/orders/order-expiry.js';
import { settleUnsettledRefunds } from '../../src/features/orders/order-refunds.js';
import { releaseExpiredHolds } from '../../src/features/stock/holds.js';
import { confirmCardLikeTheBrowser } from '../routes/payments/payments-test-kit.js';
import {
  BOAT_CENTS,
  CARDS,
  YACHT_CENTS,
  admin,
  bankReference,
  command,
  expectNo5xx,
  hasOrder,
  inject,
  openOrder,
  pick,
  world,
  type Model,
} from './ledger-model-world.js';

// The ledger model's commands: what shoppers, two admins, the card provider and the bank do.

const createCmd = fc
  .record({ shopper: fc.nat(1), product: fc.constantFrom('boat' as const, 'yacht' as const) })
  .map(({ shopper, product }) =>
    command(
      `create(shopper ${shopper}, ${product})`,
      () => true,
      (m, r) => openOrder(m, r, shopper, product),
    ),
  );

const payCmd = fc.record({ order: fc.nat(7), card: fc.constantFrom(...CARDS) }).map(({ order, card }) =>
  command(`pay(order ${order}, ${card})`, hasOrder, async (m) => {
    const ref = pick(m.orders, order);
    await confirmCardLikeTheBrowser(world.harness.standinUrl, ref.clientSecret, card);
  }),
);

const confirmCmd = fc.nat(7).map((order) =>
  command(`confirm(order ${order})`, hasOrder, async (m, r) => {
    const ref = pick(m.orders, order);
    await inject('confirm', {
      method: 'POST',
      url: '/api/payments/confirm',
      headers: r.shoppers[ref.shopper]!.headers,
      payload: { orderId: ref.orderId },
    });
  }),
);

const outageCmd = fc.boolean().map((down) =>
  command(
    down ? 'webhooks down' : 'webhooks up',
    () => true,
    async () => {
      world.harness.setWebhooksReachable(!down);
    },
  ),
);

/** The run's deliveries the API has not taken yet (refused during an outage), oldest first. */
export const heldBack = (m: Model) => world.harness.captured.slice(m.firstEvent).filter((event) => !event.delivered);

/** Held-back deliveries arrive now, shuffled, some twice; and one past delivery is replayed. */
const deliverCmd = fc.record({ order: fc.array(fc.nat(1000), { maxLength: 8 }), replay: fc.nat(1000) }).map(({ order, replay }) =>
  command(
    `deliver held shuffled ${JSON.stringify(order)} replay ${replay}`,
    () => true,
    async (m) => {
      const held = heldBack(m);
      const sequence = [...order.filter(() => held.length > 0).map((k) => held[k % held.length]!), ...held];
      const mine = world.harness.captured.slice(m.firstEvent);
      if (mine.length > 0) sequence.push(mine[replay % mine.length]!);
      for (const event of sequence) expectNo5xx('webhook', await world.harness.redeliver(event));
    },
  ),
);

const endHoldCmd = fc.nat(7).map((order) =>
  command(`hold ends(order ${order})`, hasOrder, async (m) => {
    const ref = pick(m.orders, order);
    await world.harness.app.db
      .updateTable('orders')
      .set({ hold_expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', ref.orderId)
      .where('hold_expires_at', 'is not', null)
      .execute();
    await releaseExpiredHolds(world.harness.app.db);
  }),
);

const expireCmd = fc.nat(7).map((order) =>
  command(`expire(order ${order})`, hasOrder, async (m) => {
    const ref = pick(m.orders, order);
    await world.harness.app.db
      .updateTable('orders')
      .set({ created_at: sql<Date>`now() - interval '3 days'` } as never)
      .where('id', '=', ref.orderId)
      .execute();
    await expirePendingOrders(
      world.harness.app.db,
      world.harness.app.payments,
      world.harness.app.log,
      world.harness.app.config.orders.pendingOrderTtlMinutes,
    );
  }),
);

const refundCmd = fc
  .record({ order: fc.nat(7), who: fc.nat(1), all: fc.boolean(), timeout: fc.boolean(), key: fc.nat(3) })
  .map(({ order, who, all, timeout, key }) =>
    command(
      `refund(order ${order}, admin ${who}, ${all ? 'all' : 'part'}${timeout ? ', timeout' : ''}, key ${key})`,
      hasOrder,
      async (m) => {
        const ref = pick(m.orders, order);
        if (timeout) {
          await fetch(`${world.harness.standinUrl}/_faults/drop-response`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ path: '/v1/refunds', count: '3' }),
          });
        }
        const total = ref.product === 'boat' ? BOAT_CENTS : YACHT_CENTS;
        await inject('refund', {
          method: 'POST',
          url: `/api/admin/orders/${ref.orderId}/refund`,
          headers: admin(who).headers,
          payload: { amountCents: all ? total : 250_000, idempotencyKey: `model-${ref.orderId}-${key}` },
        });
        if (timeout) {
          // Whatever the drop did not consume must not hit the next command.
          await fetch(`${world.harness.standinUrl}/_faults/drop-response`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ path: '/v1/refunds', count: '0' }),
          });
        }
      },
    ),
  );

const settleCmd = fc.constant(
  command(
    'settle-refunds job',
    () => true,
    async () => {
      await settleUnsettledRefunds(world.harness.app.db, world.harness.app.payments, world.harness.app.log, 0);
    },
  ),
);

const disputeOpenCmd = fc.nat(7).map((order) =>
  command(`dispute opens(order ${order})`, hasOrder, async (m) => {
    const ref = pick(m.orders, order);
    const intent = await world.harness.stripe.paymentIntents.retrieve(ref.intentId);
    if (intent.status !== 'succeeded') return;
    const response = await fetch(`${world.harness.standinUrl}/_dashboard/payment_intents/${ref.intentId}/dispute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_STRIPE.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ reason: 'fraudulent' }),
    });
    if (response.ok) m.disputes.push({ id: ((await response.json()) as { id: string }).id, orderId: ref.orderId, closed: false });
  }),
);

const disputeCloseCmd = fc.record({ which: fc.nat(3), won: fc.boolean() }).map(({ which, won }) =>
  command(
    `dispute closes(${which}, ${won ? 'won' : 'lost'})`,
    (m) => m.disputes.some((d) => !d.closed),
    async (m) => {
      const open = m.disputes.filter((d) => !d.closed);
      const dispute = pick(open, which);
      const response = await fetch(`${world.harness.standinUrl}/_dashboard/disputes/${dispute.id}/close`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_STRIPE.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ status: won ? 'won' : 'lost' }),
      });
      if (response.ok) dispute.closed = true;
    },
  ),
);

const bankInCmd = fc.record({ order: fc.nat(7), full: fc.boolean() }).map(({ order, full }) =>
  command(`bank transfer in(order ${order}, ${full ? 'balance' : 'part'})`, hasOrder, async (m, r) => {
    const ref = pick(m.orders, order);
    const reference = await bankReference(ref.orderId);
    if (!reference) return;
    r.serial += 1;
    const amount = full ? YACHT_CENTS - Math.round(YACHT_CENTS / 10) : 10_000_000;
    const response = await inject('bank transfer', {
      method: 'POST',
      url: '/api/admin/bank-transfers',
      headers: admin(0).headers,
      payload: {
        reference,
        amountCents: amount,
        receivedOn: new Date().toISOString().slice(0, 10),
        bankReference: `M-${r.address}-${r.serial}`,
      },
    });
    if (response.statusCode === 200) m.bankIn.set(ref.orderId, (m.bankIn.get(ref.orderId) ?? 0) + amount);
  }),
);

const bankOutCmd = fc.nat(7).map((order) =>
  command(`bank refund out(order ${order})`, hasOrder, async (m, r) => {
    const ref = pick(m.orders, order);
    r.serial += 1;
    const amount = 5_000_000;
    const response = await inject('bank refund', {
      method: 'POST',
      url: `/api/admin/orders/${ref.orderId}/bank-refund`,
      headers: admin(1).headers,
      payload: { amountCents: amount, refundedOn: new Date().toISOString().slice(0, 10), bankReference: `OUT-${r.address}-${r.serial}` },
    });
    if (response.statusCode === 200) m.bankOut.set(ref.orderId, (m.bankOut.get(ref.orderId) ?? 0) + amount);
  }),
);

const cancelCmd = fc.record({ order: fc.nat(7), who: fc.nat(1), keep: fc.boolean() }).map(({ order, who, keep }) =>
  command(`cancel(order ${order}, admin ${who}${keep ? ', keep deposit' : ''})`, hasOrder, async (m) => {
    const ref = pick(m.orders, order);
    await inject('cancel', {
      method: 'POST',
      url: `/api/admin/orders/${ref.orderId}/cancel`,
      headers: admin(who).headers,
      payload: { reason: 'Model', deposit: keep ? 'keep' : 'refund' },
    });
  }),
);

const shipCmd = fc.record({ order: fc.nat(7), who: fc.nat(1) }).map(({ order, who }) =>
  command(`ship(order ${order}, admin ${who})`, hasOrder, async (m) => {
    const ref = pick(m.orders, order);
    const response = await inject('ship', {
      method: 'POST',
      url: `/api/admin/orders/${ref.orderId}/ship`,
      headers: admin(who).headers,
      payload: {},
    });
    if (response.statusCode === 200) {
      // Shipped: the whole total collected, nothing at risk, no cancellation refund in flight. A
      // dispute the provider opens once the order has shipped (its webhook may land right after)
      // is booked in the same transaction that makes the order disputed: money first, then status.
      const money = (await orderMoney(world.harness.app.db, ref.orderId))!;
      const { status } = await world.harness.app.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', ref.orderId)
        .executeTakeFirstOrThrow();
      expect(money.collectedCents, `shipped ${ref.orderId} without the money`).toBeGreaterThanOrEqual(money.totalCents);
      if (money.atRiskCents > 0) expect(status, `shipped ${ref.orderId} with money at risk`).toBe('disputed');
      expect(money.cancelInFlight).toBe(false);
    }
  }),
);

/**
 * Two admins at once on one order: the interleaving is fast-check's (fc.scheduler). A tuple, not a
 * record: fast-check 4 clones a record holding a scheduler without its other fields.
 */
const twoAdminsCmd = fc
  .tuple(fc.nat(7), fc.constantFrom('cancel+refund', 'refund+refund', 'ship+cancel'), fc.scheduler())
  .map(([order, what, s]) =>
    command(`two admins at once(order ${order}, ${what}, ${s.toString()})`, hasOrder, async (m) => {
      const ref = pick(m.orders, order);
      const total = ref.product === 'boat' ? BOAT_CENTS : YACHT_CENTS;
      const call = (who: number, action: string) => {
        const payload =
          action === 'refund'
            ? { amountCents: total, idempotencyKey: `two-${ref.orderId}-${who}` }
            : action === 'cancel'
              ? { reason: 'Two admins', deposit: 'refund' }
              : {};
        return s.schedule(Promise.resolve(action)).then(() =>
          inject(`${action} by admin ${who}`, {
            method: 'POST',
            url: `/api/admin/orders/${ref.orderId}/${action}`,
            headers: admin(who).headers,
            payload,
          }),
        );
      };
      const [a, b] = what.split('+') as [string, string];
      const both = Promise.all([call(0, a), call(1, b)]);
      await s.waitAll();
      await both;
    }),
  );

// Weighted by repetition: paying and refunding are what most sequences must reach.
export const COMMANDS = [
  createCmd,
  payCmd,
  payCmd,
  payCmd,
  confirmCmd,
  refundCmd,
  outageCmd,
  deliverCmd,
  endHoldCmd,
  expireCmd,
  refundCmd,
  settleCmd,
  disputeOpenCmd,
  disputeCloseCmd,
  bankInCmd,
  bankOutCmd,
  cancelCmd,
  shipCmd,
  twoAdminsCmd,
];
