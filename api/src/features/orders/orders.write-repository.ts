import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { NamedAddressJson, OrderStatus } from './orders.table.js';

// Writes of the checkout: the pending order, its payment reference and the paid/failed transitions.
// Reads stay in orders.repository.ts.

type Db = Kysely<Database> | Transaction<Database>;

export interface CartLine {
  productId: string;
  quantity: number;
}

export interface PricedPendingOrder {
  orderId: string;
  /** exact, from PostgreSQL's numeric sum: it may exceed what a JavaScript number holds */
  totalCents: bigint;
  /** requested products the catalogue no longer has */
  missingProductIds: string[];
}

/**
 * Opens a pending order whose items are copied from the products table in one statement, so the
 * snapshot and the total come from the same read of the prices. The total is left at 0 for the
 * caller to check and then store with `setOrderTotal`, inside the same transaction.
 */
export async function insertPendingOrder(
  trx: Transaction<Database>,
  input: { userId: string; lines: CartLine[]; shipping: NamedAddressJson; billing: NamedAddressJson },
): Promise<PricedPendingOrder> {
  const { id: orderId } = await trx
    .insertInto('orders')
    .values({
      user_id: input.userId,
      status: 'pending',
      total_cents: 0,
      shipping: JSON.stringify(input.shipping),
      billing: JSON.stringify(input.billing),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const requested = sql.join(input.lines.map((line) => sql`(${line.productId}::uuid, ${line.quantity}::integer)`));
  const inserted = await sql<{ product_id: string }>`
    insert into order_items (order_id, product_id, name, thumbnail_url, unit_price_cents, quantity)
    select ${orderId}::uuid, p.id, p.name, p.thumbnail_url, p.price_cents, r.quantity
    from (values ${requested}) as r (product_id, quantity)
    join products p on p.id = r.product_id
    returning product_id
  `.execute(trx);

  // numeric, not bigint: a sum beyond bigint must become a clear refusal, not an overflow error.
  const { total } = await trx
    .selectFrom('order_items')
    .select(sql<string>`coalesce(sum(unit_price_cents::numeric * quantity), 0)::text`.as('total'))
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();

  const found = new Set(inserted.rows.map((row) => row.product_id));
  return {
    orderId,
    totalCents: BigInt(total),
    missingProductIds: input.lines.map((line) => line.productId).filter((id) => !found.has(id)),
  };
}

export async function setOrderTotal(trx: Db, orderId: string, totalCents: number): Promise<void> {
  await trx.updateTable('orders').set({ total_cents: totalCents }).where('id', '=', orderId).execute();
}

/** The payment intent id is the order's unique payment reference: one intent, one order. */
export async function setPaymentReference(db: Db, orderId: string, paymentReference: string): Promise<void> {
  await db.updateTable('orders').set({ payment_reference: paymentReference }).where('id', '=', orderId).execute();
}

/** For an order whose payment intent could not even be created. */
export async function markPendingOrderFailed(db: Db, orderId: string): Promise<void> {
  await db.updateTable('orders').set({ status: 'failed' }).where('id', '=', orderId).where('status', '=', 'pending').execute();
}

export interface PaymentOfOrder {
  status: OrderStatus;
  paymentReference: string | null;
}

/** Only the owner's order: someone else's reads as absent. */
export async function findPaymentOfUserOrder(db: Db, userId: string, orderId: string): Promise<PaymentOfOrder | undefined> {
  const row = await db
    .selectFrom('orders')
    .select(['status', 'payment_reference'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? { status: row.status, paymentReference: row.payment_reference } : undefined;
}

export interface SucceededPayment {
  paymentReference: string;
  amountCents: number;
  currency: string;
}

/**
 * The one way an order becomes paid: a single conditional UPDATE, so any number of concurrent
 * webhooks and confirmations make exactly one transition. It also requires the amount and
 * currency the order asked for. A failed order may still become paid: a declined attempt
 * followed by a successful one on the same intent is money received.
 * Returns the order id when this call made the transition, undefined otherwise.
 */
export async function markOrderPaid(db: Db, payment: SucceededPayment): Promise<string | undefined> {
  const row = await db
    .updateTable('orders')
    .set({ status: 'paid', paid_at: sql<Date>`now()` })
    .where('payment_reference', '=', payment.paymentReference)
    .where('status', 'in', ['pending', 'failed'])
    .where('total_cents', '=', payment.amountCents)
    .where('currency', '=', payment.currency)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** A declined payment fails a pending order; it never undoes a paid one. */
export async function markOrderFailed(db: Db, paymentReference: string): Promise<string | undefined> {
  const row = await db
    .updateTable('orders')
    .set({ status: 'failed' })
    .where('payment_reference', '=', paymentReference)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}
