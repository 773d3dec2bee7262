import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Order, OrderItem, OrderSummary } from './orders.schema.js';
import type { OrderItemRow, OrderRow } from './orders.table.js';

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

export function rowToOrder(row: OrderRow, items: OrderItem[]): Order {
  return {
    ...rowToOrderSummary(row),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    items,
    shipping: row.shipping,
    billing: row.billing,
  };
}

/** The order history: the user's paid orders, newest first. */
export async function listPaidOrdersOfUser(db: Db, userId: string): Promise<OrderSummary[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'created_at', 'total_cents', 'status'])
    .where('user_id', '=', userId)
    .where('status', '=', 'paid')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
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
  return rowToOrder(order, items.map(rowToOrderItem));
}
