import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * The shopper's checkouts whose card was declined (`failed`) and whose intent can still be paid,
 * within the pending orders' lifetime: Pay pressed again after a decline, with the same cart, must
 * find its own order again (the same order and intent, its hold renewed), never open a second order
 * that its own declined checkout's hold refuses as "just reserved". Call it after the shopper's row
 * lock (lockShopperAndFindOpenOrders), which serialises their Pay presses.
 */
export function findDeclinedCheckouts(trx: Transaction<Database>, userId: string, ttlMinutes: number) {
  return trx
    .selectFrom('orders')
    .select(['id', 'cart_key', 'payment_reference', 'total_cents', 'deposit_cents'])
    .where('user_id', '=', userId)
    .where('status', '=', 'failed')
    .where('cart_key', 'is not', null)
    .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${ttlMinutes})`)
    .orderBy('created_at', 'desc')
    .execute();
}
