import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { refundTotals } from './order-refunds.js';
import type { Order, OrderItem, OrderSummary, TimelineEntry } from './orders.schema.js';
import type { OrderItemRow, OrderRow, OrderStatus } from './orders.table.js';

type Db = Kysely<Database> | Transaction<Database>;

type SummaryColumns = Pick<OrderRow, 'id' | 'created_at' | 'total_cents' | 'status'>;

export function rowToOrderSummary(row: SummaryColumns): OrderSummary {
  return { id: row.id, createdAt: row.created_at.toISOString(), totalCents: row.total_cents, status: row.status };
}

export function rowToOrderItem(row: Omit<OrderItemRow, 'id' | 'order_id' | 'reserved_units'>): OrderItem {
  return {
    productId: row.product_id,
    name: row.name,
    thumbnailUrl: row.thumbnail_url,
    unitPriceCents: row.unit_price_cents,
    quantity: row.quantity,
  };
}

export function rowToOrder(
  row: OrderRow,
  items: OrderItem[],
  extra: { refundedCents: number; timeline: TimelineEntry[] },
): Order {
  return {
    ...rowToOrderSummary(row),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    items,
    shipping: row.shipping,
    billing: row.billing,
    refundedCents: extra.refundedCents,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    timeline: extra.timeline,
  };
}

/** Notes a shopper may read: the carrier and tracking number of a shipment, not an admin's reasons. */
const SHOPPER_NOTES: readonly OrderStatus[] = ['shipped'];

/**
 * The order history: the user's orders that were paid at some point (whatever they are now),
 * newest first. Unpaid attempts (pending, failed, expired, a cancelled checkout) stay out.
 */
/**
 * How many orders the history answers at most: every order of any real shopper (the dashboard has
 * no paging), but one request can no longer read an unbounded number of rows.
 */
export const ORDER_HISTORY_LIMIT = 200;

export async function listPaidOrdersOfUser(db: Db, userId: string, limit = ORDER_HISTORY_LIMIT): Promise<OrderSummary[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'created_at', 'total_cents', 'status'])
    .where('user_id', '=', userId)
    .where('paid_at', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(rowToOrderSummary);
}

/**
 * One order, only if it belongs to `userId` (any status, so a checkout can follow its order
 * from pending to paid). Someone else's order is as absent as an unknown one.
 */
export async function findOrderOfUser(db: Db, userId: string, orderId: string): Promise<Order | undefined> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!order) return undefined;
  const items = await db
    .selectFrom('order_items')
    .select(['product_id', 'name', 'thumbnail_url', 'unit_price_cents', 'quantity'])
    .where('order_id', '=', order.id)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const [events, totals] = await Promise.all([
    db
      .selectFrom('order_events')
      .select(['to_status', 'at', 'amount_cents', 'note'])
      .where('order_id', '=', order.id)
      .orderBy('at')
      .orderBy('id')
      .execute(),
    refundTotals(db, order.id),
  ]);
  return rowToOrder(order, items.map(rowToOrderItem), {
    refundedCents: totals.refundedCents,
    timeline: events.map((event) => ({
      status: event.to_status,
      at: event.at.toISOString(),
      amountCents: event.amount_cents,
      note: SHOPPER_NOTES.includes(event.to_status) ? event.note : null,
    })),
  });
}
