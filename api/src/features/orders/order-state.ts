import { sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { enqueueOrderMail } from '../outbox/order-mails.js';
import { releaseOrderStock, restockOrderStock, sellOrderStock } from '../stock/stock.repository.js';
import type { ActorType, OrderStatus } from '@boatshop/contract';
import type { OrderRow, OrdersTable } from './orders.table.js';

// The one place where an order changes state. Every change is a conditional UPDATE on the state
// the order was read in (two admins, or an admin and a webhook, at once make one transition; the
// other is refused with the state it found), and writes its order event and its e-mail to the
// outbox in the caller's transaction.

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
  reserved: ['reserved', 'paid', 'cancelled'],
  paid: ['shipped', 'cancelled', 'refunded', 'partially_refunded', 'disputed'],
  shipped: ['delivered', 'refunded', 'partially_refunded', 'disputed'],
  delivered: ['refunded', 'partially_refunded', 'disputed'],
  partially_refunded: ['partially_refunded', 'refunded', 'shipped', 'delivered', 'cancelled', 'disputed'],
  // A closed dispute returns the order where it was (won) or refunds it (lost).
  disputed: ['paid', 'shipped', 'delivered', 'partially_refunded', 'refunded'],
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
    .executeTakeFirst();
  if (!current) throw notFound('Order not found');
  if (input.from && !input.from.includes(current.status)) throw invalidTransition(current.status, input.to);
  const refused = refusal(current, input.to, input.actor);
  if (refused) throw refused;

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
  // order that failed, expired or was cancelled gives back what it holds (both idempotent, so a
  // replayed or concurrent change moves nothing twice; a sold boat stays sold). A reserved order
  // (deposit paid) keeps holding its units: nothing moves until it is paid or cancelled.
  if (input.to === 'paid') await sellOrderStock(trx, input.orderId);
  else if (input.to === 'failed' || input.to === 'expired' || input.to === 'cancelled') await releaseOrderStock(trx, input.orderId);
  // Cancelled after payment (only allowed before shipping): the sold boat goes back on hand.
  if (input.to === 'cancelled') await restockOrderStock(trx, input.orderId);

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
