import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { OrderStatus } from '@boatshop/contract';
import { writeOutboxMessage } from './outbox.repository.js';

export type OrderMailTemplate =
  | 'order_confirmation'
  | 'deposit_received'
  | 'balance_reminder'
  | 'order_shipped'
  | 'order_delivered'
  | 'order_cancelled'
  | 'order_refunded'
  // ledger: a payment landed after the order's hold ended and the boat went to someone else
  | 'boat_unavailable';

export interface OrderMailPayload {
  template: OrderMailTemplate;
  orderId: string;
  /** the refunded amount, for order_refunded and a cancelled paid order */
  amountCents: number | null;
}

/**
 * Which e-mail, if any, the shopper gets for a change: none for unpaid attempts or disputes. A
 * dispute that closes in the shop's favour puts the order back where it was (shipped, delivered,
 * partly refunded): the shopper had that e-mail already, so the way back sends nothing. A lost
 * dispute (it carries the amount taken back) is the shopper's refund.
 */
export function mailForTransition(from: OrderStatus, to: OrderStatus, amountCents: number | null = null): OrderMailTemplate | null {
  if (from === 'disputed' && amountCents === null) return null;
  switch (to) {
    case 'paid':
      // Paid in full (by card, or by the transfer that completed a reserved order's balance). A won
      // dispute puts the order back to paid: the shopper was confirmed already.
      return from === 'pending' || from === 'failed' || from === 'reserved' ? 'order_confirmation' : null;
    case 'reserved':
      // The deposit: what to transfer, where to, by when. A part of the balance received: no e-mail.
      return from === 'pending' || from === 'failed' ? 'deposit_received' : null;
    case 'shipped':
      return 'order_shipped';
    case 'delivered':
      return 'order_delivered';
    case 'cancelled':
      return from === 'pending' || from === 'failed' ? null : 'order_cancelled';
    case 'refunded':
    case 'partially_refunded':
      return 'order_refunded';
    default:
      return null;
  }
}

/** Written in the transaction of the change; the event id makes a replayed change write nothing new. */
export async function enqueueOrderMail(
  trx: Transaction<Database>,
  change: { orderId: string; eventId: string; from: OrderStatus; to: OrderStatus; amountCents: number | null },
): Promise<void> {
  const template = mailForTransition(change.from, change.to, change.amountCents);
  if (!template) return;
  const payload: OrderMailPayload = { template, orderId: change.orderId, amountCents: change.amountCents };
  await writeOutboxMessage(trx, { kind: 'order_mail', dedupeKey: `order-event:${change.eventId}`, payload: { ...payload } });
}

/** The one reminder of an overdue balance: the dedupe key is the order, so it is never written twice. */
export async function enqueueBalanceReminder(trx: Transaction<Database>, orderId: string): Promise<boolean> {
  const payload: OrderMailPayload = { template: 'balance_reminder', orderId, amountCents: null };
  return writeOutboxMessage(trx, { kind: 'order_mail', dedupeKey: `balance-reminder:${orderId}`, payload: { ...payload } });
}

/**
 * The payment arrived after the order's hold ended and the boat was taken by someone else: the
 * shopper is told the money goes back. The dedupe key is the order: written once, however many
 * confirmations and webhooks report the payment.
 */
export async function enqueueBoatUnavailable(trx: Transaction<Database>, orderId: string, amountCents: number): Promise<boolean> {
  const payload: OrderMailPayload = { template: 'boat_unavailable', orderId, amountCents };
  return writeOutboxMessage(trx, { kind: 'order_mail', dedupeKey: `boat-unavailable:${orderId}`, payload: { ...payload } });
}
