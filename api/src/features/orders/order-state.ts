import { sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { orderMoney, type OrderMoney } from '../ledger/ledger.js';
import { enqueueOrderMail } from '../outbox/order-mails.js';
import { refundUnavailableBoat } from '../ledger/unavailable-boat.js';
import { holdForDeposit } from '../stock/holds.js';
import { releaseOrderStock, restockOrderStock, sellOrderStock } from '../stock/stock.repository.js';
import type { ActorType, OrderStatus } from '@boatshop/contract';
import type { OrderRow, OrdersTable } from './orders.table.js';

// The one place where an order changes state. Every change is a conditional UPDATE on the state
// the order was read in, under the order's row lock (two admins, or an admin and a webhook, at once
// make one transition; the other is refused with the state it found). Each target also has a
// precondition on the order's money, derived from its ledger under that lock (moneyRefusal). The
// change writes its order event and its e-mail to the outbox in the caller's transaction.

export interface Actor {
  type: ActorType;
  /** the admin's or shopper's user id; null for the provider and the system */
  id: string | null;
}

export const SYSTEM: Actor = { type: 'system', id: null };
export const PROVIDER: Actor = { type: 'provider', id: null };

/** Where each state may go. Guards in `refusal` narrow partially_refunded (shipped or not). */
export const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  // reserved: the deposit was paid by card, the balance is due by bank transfer.
  pending: ['paid', 'reserved', 'failed', 'cancelled', 'expired'],
  // A declined card may be tried again on the same intent.
  failed: ['paid', 'reserved', 'cancelled', 'expired'],
  // reserved -> reserved: a bank transfer that does not yet complete the total (an event, no change).
  // Stock stays held while reserved; it is sold with paid and released with cancelled.
  // A dispute of the deposit puts it in dispute until the bank decides.
  reserved: ['reserved', 'paid', 'cancelled', 'disputed'],
  paid: ['shipped', 'cancelled', 'refunded', 'partially_refunded', 'disputed'],
  shipped: ['delivered', 'refunded', 'partially_refunded', 'disputed'],
  delivered: ['refunded', 'partially_refunded', 'disputed'],
  partially_refunded: ['partially_refunded', 'refunded', 'shipped', 'delivered', 'cancelled', 'disputed'],
  // A closed dispute returns the order where it was (won) or refunds it (lost).
  disputed: ['reserved', 'paid', 'shipped', 'delivered', 'partially_refunded', 'refunded'],
  cancelled: [],
  refunded: [],
  expired: [],
};

export const STATUS_WORDS: Readonly<Record<OrderStatus, string>> = {
  pending: 'pending',
  reserved: 'reserved',
  paid: 'paid',
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
  refunded: 'refunded',
  partially_refunded: 'partially refunded',
  disputed: 'disputed',
  expired: 'expired',
  failed: 'failed',
};

const TARGET_WORDS: Readonly<Record<OrderStatus, string>> = {
  pending: 'reopened',
  reserved: 'reserved',
  paid: 'marked paid',
  shipped: 'shipped',
  delivered: 'marked delivered',
  cancelled: 'cancelled',
  refunded: 'refunded',
  partially_refunded: 'refunded',
  disputed: 'disputed',
  expired: 'expired',
  failed: 'marked failed',
};

export function invalidTransition(current: OrderStatus, to: OrderStatus): ApiError {
  return new ApiError(409, 'INVALID_TRANSITION', `The order is ${STATUS_WORDS[current]}; it cannot be ${TARGET_WORDS[to]}.`);
}

type GuardColumns = Pick<OrderRow, 'status' | 'shipped_at' | 'delivered_at'>;

/** Why `order` cannot go to `to` by `actor`'s hand, or null when it can. */
export function refusal(order: GuardColumns, to: OrderStatus, actor: Actor): ApiError | null {
  if (!TRANSITIONS[order.status].includes(to)) return invalidTransition(order.status, to);
  // While the bank decides, only the provider's verdict moves a disputed order.
  if (order.status === 'disputed' && actor.type !== 'provider') return invalidTransition(order.status, to);
  if (order.status === 'partially_refunded') {
    if ((to === 'shipped' || to === 'cancelled') && order.shipped_at !== null) return invalidTransition(order.status, to);
    if (to === 'delivered' && (order.shipped_at === null || order.delivered_at !== null)) return invalidTransition(order.status, to);
  }
  return null;
}

function moneyError(message: string): ApiError {
  return new ApiError(409, 'MONEY_PRECONDITION', message);
}

/**
 * Why the order's money does not allow `to`, or null when it does. `keptCents`: what a
 * cancellation may keep (a reserved order's deposit kept by the shop).
 */
export function moneyRefusal(money: OrderMoney, to: OrderStatus, keptCents = 0): ApiError | null {
  const atRisk = money.atRiskCents > 0 ? ` ${formatEuro(money.atRiskCents)} is at risk in a dispute.` : '';
  switch (to) {
    case 'paid':
      // Paid: the shop holds the whole total (a refunded or disputed deposit is missing money).
      if (money.heldCents !== money.totalCents || money.atRiskCents > 0) {
        return moneyError(
          `The order holds ${formatEuro(money.heldCents)} of ${formatEuro(money.totalCents)}.${atRisk} It cannot be marked paid.`,
        );
      }
      return null;
    case 'shipped':
    case 'delivered':
      if (money.atRiskCents > 0 || money.collectedCents < money.totalCents) {
        return moneyError(
          `The order has received ${formatEuro(money.collectedCents)} of ${formatEuro(money.totalCents)}.${atRisk} It cannot be ${TARGET_WORDS[to]}.`,
        );
      }
      if (money.cancelInFlight) return moneyError('A cancellation of this order is being refunded; it cannot be ' + TARGET_WORDS[to] + '.');
      return null;
    case 'reserved':
      if (money.atRiskCents > 0 || money.collectedCents < (money.depositCents ?? money.totalCents)) {
        return moneyError(`The deposit has not been received.${atRisk}`);
      }
      return null;
    case 'disputed':
      return money.atRiskCents > 0 ? null : moneyError('No dispute is open on this order.');
    case 'partially_refunded':
      return money.refundedCents + money.lostCents > 0 ? null : moneyError('Nothing has been refunded on this order.');
    case 'refunded':
      return money.refundedCents + money.lostCents >= money.receivedCents && money.receivedCents > 0
        ? null
        : moneyError(`${formatEuro(money.heldCents)} of this order has not been refunded.`);
    case 'cancelled':
      if (money.atRiskCents > 0) return moneyError(`The order cannot be cancelled:${atRisk}`);
      return money.heldCents > keptCents
        ? moneyError(`The order still holds ${formatEuro(money.heldCents - keptCents)} of the buyer's money: refund it first.`)
        : null;
    case 'failed':
    case 'expired':
    case 'pending':
      return money.receivedCents > 0 ? moneyError('Money has been received for this order.') : null;
  }
}

export type OrderChanges = Pick<
  Updateable<OrdersTable>,
  'carrier' | 'tracking_number' | 'shipped_at' | 'delivered_at' | 'paid_at' | 'cart_key'
>;

export interface TransitionInput {
  orderId: string;
  to: OrderStatus;
  actor: Actor;
  /** Only from these states (e.g. a webhook that pays only pending or failed orders). */
  from?: readonly OrderStatus[];
  /** Money moved by this change (refunds, payments), in cents. */
  amountCents?: number | null;
  note?: string | null;
  changes?: OrderChanges;
  /** a cancellation that keeps this much of the buyer's money (a reserved order's deposit) */
  keptCents?: number;
}

export interface Transition {
  order: OrderRow;
  from: OrderStatus;
  eventId: string;
}

/**
 * Moves one order to `input.to`, inside the caller's transaction, or throws 409
 * INVALID_TRANSITION naming the state the order is in (404 when there is no such order).
 */
export async function transitionOrder(trx: Transaction<Database>, input: TransitionInput): Promise<Transition> {
  const current = await trx
    .selectFrom('orders')
    .select(['status', 'shipped_at', 'delivered_at'])
    .where('id', '=', input.orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw notFound('Order not found');
  if (input.from && !input.from.includes(current.status)) throw invalidTransition(current.status, input.to);
  const refused = refusal(current, input.to, input.actor);
  if (refused) throw refused;
  // reserved -> reserved records a bank transfer that leaves a balance, and a deposit order whose
  // dispute closed goes back to reserved whatever the bank decided (a lost deposit is owed again):
  // no money precondition for either.
  if (!(input.to === 'reserved' && (current.status === 'reserved' || current.status === 'disputed'))) {
    const money = await orderMoney(trx, input.orderId);
    const refusedByMoney = money && moneyRefusal(money, input.to, input.keptCents);
    if (refusedByMoney) throw refusedByMoney;
  }

  // Conditional on the state just read: a concurrent change in between makes this update no row.
  const order = await trx
    .updateTable('orders')
    .set({ ...input.changes, status: input.to, updated_at: sql<Date>`now()` })
    .where('id', '=', input.orderId)
    .where('status', '=', current.status)
    .returningAll()
    .executeTakeFirst();
  if (!order) {
    const now = await trx.selectFrom('orders').select('status').where('id', '=', input.orderId).executeTakeFirstOrThrow();
    throw invalidTransition(now.status, input.to);
  }

  const { id: eventId } = await trx
    .insertInto('order_events')
    .values({
      order_id: input.orderId,
      from_status: current.status,
      to_status: input.to,
      actor_type: input.actor.type,
      actor_id: input.actor.id,
      amount_cents: input.amountCents ?? null,
      note: input.note ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // Stock moves with the state, in the same transaction: a paid order's held units are sold; an
  // order that expired or was cancelled gives back what it holds (both idempotent, so a replayed
  // or concurrent change moves nothing twice; a sold boat stays sold). A declined card keeps the
  // hold: the same intent may still be paid until the order expires. A reserved order (deposit
  // paid) keeps holding its units until it is paid or cancelled.
  // A deposit paid keeps (or takes again) the hold until the balance is due.
  let stock: 'sold' | 'reserved' | 'short' | null | undefined;
  if (input.to === 'paid') stock = await sellOrderStock(trx, input.orderId);
  else if (input.to === 'reserved' && (current.status === 'pending' || current.status === 'failed')) {
    stock = await holdForDeposit(trx, input.orderId);
  } else if (input.to === 'expired' || input.to === 'cancelled') await releaseOrderStock(trx, input.orderId);
  // Cancelled after payment (only allowed before shipping): the sold boat goes back on hand.
  if (input.to === 'cancelled') await restockOrderStock(trx, input.orderId);

  // Paid after the hold ended and the boat went to someone else: no confirmation; the card money
  // goes back (refundUnavailableBoat writes the refund and its own e-mail).
  if (stock === 'short') {
    await refundUnavailableBoat(trx, input.orderId);
    return { order, from: current.status, eventId };
  }

  await enqueueOrderMail(trx, {
    orderId: input.orderId,
    eventId,
    from: current.status,
    to: input.to,
    amountCents: input.amountCents ?? null,
  });
  return { order, from: current.status, eventId };
}

/** Like transitionOrder, but a refusal is an answer (undefined), not an error: for webhooks and jobs. */
export async function tryTransitionOrder(trx: Transaction<Database>, input: TransitionInput): Promise<Transition | undefined> {
  try {
    return await transitionOrder(trx, input);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'INVALID_TRANSITION' || error.statusCode === 404)) return undefined;
    throw error;
  }
}
