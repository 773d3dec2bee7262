import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { lockOrderForPayment, settleOrder } from '../deposits/order-settlement.js';
import { appendLedgerEntry } from '../ledger/ledger.js';
import { recordPaymentDocument } from '../invoices/money-events.js';
import { PROVIDER, type Actor } from './order-state.js';
import { markOfferLeadWon } from '../offers/offers.repository.js';
import type { OrderStatus } from '@boatshop/contract';
import type { NamedAddressJson } from './orders.table.js';

// Writes of the checkout: the pending order, its payment reference and the paid/failed transitions.
// Reads stay in orders.repository.ts.

export interface CartLine {
  productId: string;
  quantity: number;
}

/**
 * A price agreed for one product (an accepted offer), used instead of the catalogue's for that
 * line. The order records the offer it came from.
 */
export interface AgreedPrice {
  offerId: string;
  productId: string;
  unitPriceCents: number;
}

/** The lines as a VALUES list: product, quantity, and the agreed unit price (null: the catalogue's). */
function requestedLines(lines: CartLine[], agreed: AgreedPrice | null) {
  return sql.join(
    lines.map((line) => {
      const price = agreed && agreed.productId === line.productId.toLowerCase() ? agreed.unitPriceCents : null;
      return sql`(${line.productId}::uuid, ${line.quantity}::integer, ${price}::bigint)`;
    }),
  );
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
  input: {
    userId: string;
    lines: CartLine[];
    shipping: NamedAddressJson;
    billing: NamedAddressJson;
    cartKey: string | null;
    /** an accepted offer's price for its boat, instead of the catalogue's */
    agreed?: AgreedPrice | null;
  },
): Promise<PricedPendingOrder> {
  const agreed = input.agreed ?? null;
  const { id: orderId } = await trx
    .insertInto('orders')
    .values({
      user_id: input.userId,
      status: 'pending',
      total_cents: 0,
      shipping: JSON.stringify(input.shipping),
      billing: JSON.stringify(input.billing),
      cart_key: input.cartKey,
      ...(agreed ? { offer_id: agreed.offerId } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const requested = requestedLines(input.lines, agreed);
  const inserted = await sql<{ product_id: string }>`
    insert into order_items (order_id, product_id, name, thumbnail_url, unit_price_cents, quantity)
    select ${orderId}::uuid, p.id, p.name, p.thumbnail_url, coalesce(r.agreed_cents, p.price_cents), r.quantity
    from (values ${requested}) as r (product_id, quantity, agreed_cents)
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

/** A deposit order: what the card pays now, its RF reference and (provisionally) its due date. */
export async function setOrderDeposit(
  trx: Db,
  orderId: string,
  deposit: { depositCents: number; bankReference: string; balanceDueOn: string },
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ deposit_cents: deposit.depositCents, bank_reference: deposit.bankReference, balance_due_on: deposit.balanceDueOn })
    .where('id', '=', orderId)
    .execute();
}

/** The categories of the order's products (for the shop's deposit categories). */
export async function categoriesOfOrder(trx: Db, orderId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('order_items as i')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .select('p.category')
    .distinct()
    .where('i.order_id', '=', orderId)
    .execute();
  return rows.map((row) => row.category);
}

/** Prices a cart from the database without opening an order (the checkout's quote). */
export async function priceCart(
  db: Db,
  lines: CartLine[],
  /** an accepted offer's price for its boat, instead of the catalogue's */
  agreed: AgreedPrice | null = null,
): Promise<{ totalCents: bigint; categories: string[]; missingProductIds: string[] }> {
  const requested = requestedLines(lines, agreed);
  const { rows } = await sql<{ id: string; category: string; line_cents: string }>`
    select p.id, p.category, (coalesce(r.agreed_cents, p.price_cents)::numeric * r.quantity)::text as line_cents
    from (values ${requested}) as r (product_id, quantity, agreed_cents)
    join products p on p.id = r.product_id
  `.execute(db);
  const found = new Set(rows.map((row) => row.id));
  return {
    totalCents: rows.reduce((sum, row) => sum + BigInt(row.line_cents), 0n),
    categories: [...new Set(rows.map((row) => row.category))],
    missingProductIds: lines.map((line) => line.productId).filter((id) => !found.has(id)),
  };
}

/** The shopper and the cart's content (lines, addresses, the total they saw), hashed. */
export function checkoutKey(input: {
  userId: string;
  lines: CartLine[];
  shipping: NamedAddressJson;
  billing: NamedAddressJson;
  expectedTotalCents: number;
  /** only a deposit checkout adds it, so the keys of full checkouts stay what they were */
  mode?: 'deposit';
  /** books: the buyer check the order is placed under, when the checkout made one */
  buyerCheckId?: string;
  /** only an offer's checkout adds it */
  offerId?: string;
}): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('base64url');
}

/**
 * Locks the shopper's row for the rest of the transaction, so their concurrent checkouts take
 * turns, and answers their open (pending, not yet expired) orders of a checkout.
 * The lock is FOR NO KEY UPDATE: it does not block rows that merely reference the shopper (a
 * webhook paying one of their orders inserts such rows while it holds that order), so a checkout
 * replacing that order waits for the webhook instead of deadlocking with it.
 */
export async function lockShopperAndFindOpenOrders(trx: Transaction<Database>, userId: string, ttlMinutes: number) {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirstOrThrow();
  return trx
    .selectFrom('orders')
    .select(['id', 'cart_key', 'payment_reference', 'total_cents', 'deposit_cents'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('cart_key', 'is not', null)
    .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${ttlMinutes})`)
    .execute();
}

/**
 * The payment intent id is the order's unique payment reference (one intent, one order) and its
 * card payment line. A second Pay press for the same order finds both written already.
 */
export async function recordCardPayment(
  db: Kysely<Database>,
  input: { orderId: string; paymentReference: string; amountCents: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('orders').set({ payment_reference: input.paymentReference }).where('id', '=', input.orderId).execute();
    await trx
      .insertInto('order_payments')
      .values({ order_id: input.orderId, method: 'card', amount_cents: input.amountCents, provider_reference: input.paymentReference })
      .onConflict((oc) => oc.column('provider_reference').doNothing())
      .execute();
  });
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
 * A card payment the provider says succeeded, applied to its order: the card's payment line
 * becomes succeeded and the order goes where its confirmed payments put it (settleOrder): paid
 * when they reach the total, reserved when it is a deposit. The order's row is locked first, so
 * any number of concurrent webhooks and confirmations make exactly one transition. The amount
 * must be what the card was asked for (the deposit, or the total) in the order's currency. A
 * failed order may still be paid: a declined attempt followed by a successful one on the same
 * intent is money received.
 * Returns the order id when this call made the transition, undefined otherwise.
 */
export async function markOrderPaid(db: Db, payment: SucceededPayment, actor: Actor = PROVIDER): Promise<string | undefined> {
  if (!db.isTransaction) return db.transaction().execute((trx) => markOrderPaid(trx, payment, actor));
  const trx = db as Transaction<Database>;
  const order = await lockOrderForPayment(trx, { paymentReference: payment.paymentReference });
  if (!order || order.currency !== payment.currency) return undefined;
  if ((order.deposit_cents ?? order.total_cents) !== payment.amountCents) return undefined;
  if (order.status !== 'pending' && order.status !== 'failed') return undefined;
  await appendLedgerEntry(trx, {
    orderId: order.id,
    kind: 'card_capture',
    amountCents: payment.amountCents,
    source: 'card',
    reference: payment.paymentReference,
    actor,
    note: order.deposit_cents !== null ? 'Deposit paid by card' : 'Paid by card',
  });
  await trx
    .updateTable('order_payments')
    .set({ status: 'succeeded', confirmed_at: sql<Date>`now()` })
    .where('provider_reference', '=', payment.paymentReference)
    .where('status', '!=', 'succeeded')
    .execute();
  const transition = await settleOrder(trx, { orderId: order.id, actor, amountCents: payment.amountCents, method: 'card' });
  // books: the payment's document (invoice, or advance invoice for a deposit), in this transaction.
  await recordPaymentDocument(trx, {
    orderId: order.id,
    paymentId: payment.paymentReference,
    amountCents: payment.amountCents,
    method: 'card',
  });
  // offers: an offer's order reserved or paid by card wins its lead
  if (transition) await markOfferLeadWon(trx, order.id);
  return transition ? order.id : undefined;
}
