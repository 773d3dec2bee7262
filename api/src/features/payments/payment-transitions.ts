import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { PROVIDER, tryTransitionOrder, type Actor } from '../orders/order-state.js';
import { appendLedgerEntry, orderMoney } from '../ledger/ledger.js';
import { followRefunds } from '../orders/refund-settlement.js';
import { markOrderPaid } from '../orders/orders.write-repository.js';
import { recordRefundDocument } from '../invoices/money-events.js';
import type { OrderStatus } from '@boatshop/contract';
import type { ChargeState, DisputeState, PaymentIntentState } from './payment-provider.js';

type Trx = Transaction<Database>;

// What the provider says (webhooks, and the browser's confirmation asking the provider) applied
// to orders, always through order-state.ts, inside the caller's transaction.

async function orderOfIntent(trx: Trx, intentId: string | null) {
  if (!intentId) return undefined;
  return (
    trx
      .selectFrom('orders')
      .select(['id', 'status', 'total_cents', 'deposit_cents', 'currency'])
      .where('payment_reference', '=', intentId)
      // Serialises the webhooks and admin actions touching one order.
      .forUpdate()
      .executeTakeFirst()
  );
}

export type UnmatchedReason = 'no_order' | 'amount_mismatch' | 'order_closed';

/**
 * Money received without an order (or not the order's amount): never silent. Logged at error
 * level with the intent id and kept for an admin (GET /api/admin/unmatched-payments).
 */
async function recordUnmatched(
  trx: Trx,
  log: FastifyBaseLogger,
  intent: PaymentIntentState,
  reason: UnmatchedReason,
  orderId: string | null,
): Promise<void> {
  log.error(
    { paymentIntentId: intent.id, amountCents: intent.amountCents, currency: intent.currency, reason, orderId },
    'payment received without a matching order',
  );
  await trx
    .insertInto('unmatched_payments')
    .values({ provider_reference: intent.id, amount_cents: intent.amountCents, currency: intent.currency, reason, order_id: orderId })
    .onConflict((oc) => oc.column('provider_reference').doNothing())
    .execute();
}

const PAYABLE: readonly OrderStatus[] = ['pending', 'failed'];

/**
 * An intent's state applied to its order: succeeded pays it, or reserves a deposit order (once,
 * whatever the number of webhooks and confirmations), a decline fails a pending order, a cancellation cancels an open one.
 */
export async function applyPaymentIntentState(
  trx: Trx,
  log: FastifyBaseLogger,
  intent: PaymentIntentState,
  actor: Actor = PROVIDER,
): Promise<void> {
  if (intent.status === 'succeeded') {
    const order = await orderOfIntent(trx, intent.id);
    if (!order) return recordUnmatched(trx, log, intent, 'no_order', null);
    // The card pays the deposit of a deposit order, else the total.
    if ((order.deposit_cents ?? order.total_cents) !== intent.amountCents || order.currency !== intent.currency) {
      return recordUnmatched(trx, log, intent, 'amount_mismatch', order.id);
    }
    if (!PAYABLE.includes(order.status)) {
      // Paid already (a replay or the other path): nothing to do. Closed meanwhile: money without an order.
      if (order.status === 'cancelled' || order.status === 'expired') await recordUnmatched(trx, log, intent, 'order_closed', order.id);
      return;
    }
    await markOrderPaid(trx, { paymentReference: intent.id, amountCents: intent.amountCents, currency: intent.currency }, actor);
    return;
  }
  // Stripe puts a declined intent back to requires_payment_method, with the reason attached.
  if (intent.status === 'requires_payment_method' && intent.failureMessage !== null) {
    const order = await orderOfIntent(trx, intent.id);
    if (!order || order.status !== 'pending') return;
    await tryTransitionOrder(trx, { orderId: order.id, to: 'failed', from: ['pending'], actor, note: intent.failureMessage });
    return;
  }
  if (intent.status === 'canceled') {
    await trx
      .updateTable('order_payments')
      .set({ status: 'canceled' })
      .where('provider_reference', '=', intent.id)
      .where('status', '!=', 'succeeded')
      .execute();
    const order = await orderOfIntent(trx, intent.id);
    // Expired or cancelled by us already: the webhook only confirms it.
    if (!order || !PAYABLE.includes(order.status)) return;
    // The shop's expiry cancels with reason 'abandoned': its webhook, whether it arrives before or
    // after the expiry's own transaction, makes the order expired, never cancelled.
    const expiry = intent.cancellationReason === 'abandoned';
    await tryTransitionOrder(trx, {
      orderId: order.id,
      to: expiry ? 'expired' : 'cancelled',
      from: PAYABLE,
      actor,
      note: expiry ? 'Not paid in time' : 'Payment cancelled at the payment provider',
      changes: { cart_key: null },
    });
  }
}

/**
 * `charge.refunded` carries the charge's refunded total. Whatever exceeds the card refunds the
 * ledger holds and those in flight was refunded at the provider, e.g. in Stripe's dashboard. Its
 * reference is the charge and the total it reached, so a replay books nothing twice.
 */
export async function applyChargeRefunded(trx: Trx, charge: ChargeState): Promise<void> {
  const order = await orderOfIntent(trx, charge.paymentIntentId);
  if (!order) return;
  const money = (await orderMoney(trx, order.id))!;
  const external = charge.amountRefundedCents - money.cardRefundedCents - money.refundsInFlightCents;
  if (external <= 0) return;
  const booked = await appendLedgerEntry(trx, {
    orderId: order.id,
    kind: 'card_refund',
    amountCents: -external,
    source: 'card',
    reference: `${charge.id}:refunded:${charge.amountRefundedCents}`,
    actor: PROVIDER,
    note: 'Refunded at the payment provider',
  });
  if (!booked) return;
  // Listed with the shop's own refunds, settled already (nothing of it is in flight).
  const refund = await trx
    .insertInto('order_refunds')
    .values({
      order_id: order.id,
      amount_cents: external,
      reason: 'Refunded at the payment provider',
      status: 'succeeded',
      created_by_type: 'provider',
      created_by_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // books: its credit note, in this transaction.
  await recordRefundDocument(trx, { orderId: order.id, refundId: refund.id, amountCents: external });
  // A refund of an order not paid in full yet (a deposit): the order cannot be paid on that money.
  if (order.status === 'reserved' || order.status === 'disputed') return;
  await followRefunds(trx, order.id, { actor: PROVIDER, amountCents: external, note: 'Refunded at the payment provider', cancel: false });
}

const DISPUTABLE: readonly OrderStatus[] = ['reserved', 'paid', 'shipped', 'delivered', 'partially_refunded'];

/**
 * A dispute booked in the ledger: opening takes the amount away (at risk), closing gives it back
 * (won) or confirms it gone (lost). Events may come in any order and any number of times: a
 * closing that finds no opening books both, a late opening finds its row taken and does nothing.
 */
export async function applyDispute(
  trx: Trx,
  type: 'charge.dispute.created' | 'charge.dispute.closed',
  dispute: DisputeState,
): Promise<void> {
  const order = await orderOfIntent(trx, dispute.paymentIntentId);
  if (!order) return;
  // A dispute of nothing (a charge refunded in full before the buyer's bank opened it) puts no
  // money at risk and books nothing; its webhooks are answered, not retried forever.
  if (dispute.amountCents <= 0) return;
  const opened = await appendLedgerEntry(trx, {
    orderId: order.id,
    kind: 'dispute_opened',
    amountCents: -dispute.amountCents,
    source: 'card',
    reference: `${dispute.id}:opened`,
    disputeId: dispute.id,
    actor: PROVIDER,
    note: `Dispute ${dispute.id} opened (${dispute.reason})`,
  });
  if (type === 'charge.dispute.created') {
    if (!opened) return;
    await tryTransitionOrder(trx, {
      orderId: order.id,
      to: 'disputed',
      from: DISPUTABLE,
      actor: PROVIDER,
      amountCents: dispute.amountCents,
      note: `Dispute ${dispute.id} opened (${dispute.reason})`,
    });
    return;
  }
  const lost = dispute.status === 'lost';
  const closed = await appendLedgerEntry(trx, {
    orderId: order.id,
    kind: lost ? 'dispute_lost' : 'dispute_won',
    amountCents: lost ? 0 : dispute.amountCents,
    source: 'card',
    reference: `${dispute.id}:closed`,
    disputeId: dispute.id,
    actor: PROVIDER,
    note: `Dispute ${dispute.id} closed: ${dispute.status}`,
  });
  if (!closed) return;
  const money = (await orderMoney(trx, order.id))!;
  // Another dispute still open keeps the order disputed.
  if (money.atRiskCents > 0) return;
  const current = await trx.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow();
  // Where the order was when the dispute opened (a closing without an opening: where it is).
  let back: OrderStatus = current.status;
  if (current.status === 'disputed') {
    const openedAt = await trx
      .selectFrom('order_events')
      .select('from_status')
      .where('order_id', '=', order.id)
      .where('to_status', '=', 'disputed')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    back = openedAt?.from_status ?? 'paid';
  }
  // A refund that settled while the dispute was open could not move the order then (only the
  // provider moves a disputed order): a won dispute ends where that refund would have put it.
  const gone = money.refundedCents + money.lostCents;
  if (!lost && gone > 0 && (back === 'paid' || back === 'shipped' || back === 'delivered')) {
    back = gone >= money.receivedCents ? 'refunded' : 'partially_refunded';
  }
  const note = `Dispute ${dispute.id} closed: ${dispute.status}`;
  // Lost: the money is gone, as good as a refund of the disputed amount, except for a deposit
  // order not paid yet, which stays reserved (the deposit is owed again).
  if (lost && back !== 'reserved') {
    const to: OrderStatus = money.refundedCents + money.lostCents >= money.receivedCents ? 'refunded' : 'partially_refunded';
    await tryTransitionOrder(trx, { orderId: order.id, to, actor: PROVIDER, amountCents: dispute.amountCents, note });
    return;
  }
  if (current.status === 'disputed') {
    await tryTransitionOrder(trx, { orderId: order.id, to: back, from: ['disputed'], actor: PROVIDER, note });
  }
}
