import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { PaymentProvider } from '../payments/payment-provider.js';
import { applyPaymentIntentState } from '../payments/payment-transitions.js';
import { sendUnsentRefundsOfOrder } from './refund-settlement.js';
import { SYSTEM, tryTransitionOrder } from './order-state.js';

/**
 * Unpaid orders older than `ttlMinutes` expire. Each intent is cancelled at the provider first:
 * one that turns out to have succeeded meanwhile pays its order instead of expiring it.
 */
export async function expirePendingOrders(
  db: Kysely<Database>,
  payments: PaymentProvider | null,
  log: FastifyBaseLogger,
  ttlMinutes: number,
): Promise<number> {
  const stale = await db
    .selectFrom('orders')
    .select(['id', 'payment_reference'])
    .where('status', 'in', ['pending', 'failed'])
    .where('created_at', '<', sql<Date>`now() - make_interval(mins => ${ttlMinutes})`)
    .orderBy('created_at')
    .limit(100)
    .execute();
  let expired = 0;
  for (const order of stale) {
    if (order.payment_reference && payments) {
      let intent;
      try {
        intent = await payments.cancelIntent(order.payment_reference, 'abandoned');
      } catch (err) {
        log.error(
          { err, orderId: order.id, paymentIntentId: order.payment_reference },
          'pending order: intent not cancelled; retried next run',
        );
        continue;
      }
      if (intent.status === 'succeeded') {
        await db.transaction().execute((trx) => applyPaymentIntentState(trx, log, intent, SYSTEM));
        await sendUnsentRefundsOfOrder(db, payments, log, { orderId: order.id });
        continue;
      }
    }
    const done = await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('order_payments')
        .set({ status: 'canceled' })
        .where('order_id', '=', order.id)
        .where('status', 'in', ['pending', 'failed'])
        .execute();
      return tryTransitionOrder(trx, {
        orderId: order.id,
        to: 'expired',
        from: ['pending', 'failed'],
        actor: SYSTEM,
        note: `Not paid within ${ttlMinutes} minutes`,
        changes: { cart_key: null },
      });
    });
    if (done) expired += 1;
  }
  return expired;
}
