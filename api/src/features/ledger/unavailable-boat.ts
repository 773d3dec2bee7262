import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { enqueueBoatUnavailable } from '../outbox/order-mails.js';
import { cardRefundableCents, orderMoney } from './ledger.js';

/** The key of the automatic refund of an order whose boat went to someone else: one per order. */
export const unavailableBoatRefundKey = (orderId: string) => `cancel:boat-unavailable:${orderId}`;

export const UNAVAILABLE_BOAT_REASON = 'The boat went to another buyer before the payment arrived';

/**
 * A payment landed on an order whose hold had ended and whose boat another order holds or bought
 * (stock `short`): its card money goes back. In the payment's own transaction, under the order's
 * row lock, this writes the refund as pending under a key derived from the order (a replayed or
 * concurrent confirmation finds it written and does nothing) and the shopper's e-mail saying so.
 * The provider call happens after the commit (sendUnsentRefundsOfOrder) and, should that not
 * happen, in the settle-refunds job: the recoverable refund path. The refund's key starts with
 * `cancel:`, so it cancels the order when it settles and blocks shipping meanwhile.
 * Money received by bank transfer cannot go back to a card: such an order is left to an admin
 * (stock `short` is shown in the admin's order list). Returns true when this call opened the refund.
 */
export async function refundUnavailableBoat(trx: Transaction<Database>, orderId: string): Promise<boolean> {
  const money = await orderMoney(trx, orderId);
  if (!money || money.bankReceivedCents - money.bankRefundedCents > 0) return false;
  const amount = cardRefundableCents(money);
  if (amount <= 0) return false;
  const opened = await trx
    .insertInto('order_refunds')
    .values({
      order_id: orderId,
      amount_cents: amount,
      reason: UNAVAILABLE_BOAT_REASON,
      idempotency_key: unavailableBoatRefundKey(orderId),
      created_by_type: 'system',
      created_by_id: null,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!opened) return false;
  await enqueueBoatUnavailable(trx, orderId, amount);
  return true;
}
