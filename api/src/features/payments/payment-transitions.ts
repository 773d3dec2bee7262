import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { markOrderFailed, markOrderPaid } from '../orders/orders.write-repository.js';
import type { PaymentIntentState } from './payment-provider.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What the provider says about an intent, applied to its order: the webhook and the browser's
 * confirmation both come here, so both paths make the same, idempotent transitions.
 */
export async function applyPaymentIntentState(db: Db, intent: PaymentIntentState): Promise<void> {
  if (intent.status === 'succeeded') {
    await markOrderPaid(db, { paymentReference: intent.id, amountCents: intent.amountCents, currency: intent.currency });
    return;
  }
  // Stripe puts a declined intent back to requires_payment_method, with the reason attached.
  if (intent.status === 'requires_payment_method' && intent.failureMessage !== null) {
    await markOrderFailed(db, intent.id);
  }
}
