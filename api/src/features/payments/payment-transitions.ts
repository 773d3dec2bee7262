import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { markOrderFailed, markOrderPaid } from '../orders/orders.write-repository.js';
import { releaseOrderStock, sellOrderStock } from '../stock/stock.repository.js';
import type { PaymentIntentState } from './payment-provider.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What the provider says about an intent, applied to its order: the webhook and the browser's
 * confirmation both come here, so both paths make the same, idempotent transitions. The order's
 * status and its stock (sold when paid, released when failed) change in one transaction.
 */
export async function applyPaymentIntentState(db: Db, intent: PaymentIntentState): Promise<void> {
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => applyPaymentIntentState(trx, intent));
    return;
  }
  const trx = db as Transaction<Database>;
  if (intent.status === 'succeeded') {
    const paidOrderId = await markOrderPaid(trx, { paymentReference: intent.id, amountCents: intent.amountCents, currency: intent.currency });
    if (paidOrderId) await sellOrderStock(trx, paidOrderId);
    return;
  }
  // Stripe puts a declined intent back to requires_payment_method, with the reason attached.
  if (intent.status === 'requires_payment_method' && intent.failureMessage !== null) {
    const failedOrderId = await markOrderFailed(trx, intent.id);
    if (failedOrderId) await releaseOrderStock(trx, failedOrderId);
  }
}
