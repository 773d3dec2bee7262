import { sql } from 'kysely';
import type { DepositsConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { refundTotals } from './refund-totals.js';
import type { OrderBalance as Balance, Order, OrderItem, OrderSummary, OrderTimelineEntry as TimelineEntry } from '@boatshop/contract';
import type { OrderStatus } from '@boatshop/contract';
import type { OrderItemRow, OrderRow } from './orders.table.js';

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
  extra: { refundedCents: number; paidCents: number; balance: Balance | null; timeline: TimelineEntry[] },
): Order {
  return {
    ...rowToOrderSummary(row),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    items,
    shipping: row.shipping,
    billing: row.billing,
    refundedCents: extra.refundedCents,
    paidCents: extra.paidCents,
    depositCents: row.deposit_cents,
    balance: extra.balance,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    timeline: extra.timeline,
  };
}

/**
 * Notes a shopper may read: the carrier and tracking number of a shipment, and the shop's own
 * words for money received ("Deposit paid", "Bank transfer received"), never an admin's reasons.
 */
function shopperNote(event: { from_status: OrderStatus | null; to_status: OrderStatus; note: string | null }): string | null {
  if (event.to_status === 'shipped' || event.to_status === 'reserved') return event.note;
  if (event.to_status === 'paid' && event.from_status === 'reserved') return event.note;
  return null;
}

/** The bank details of a reserved order's balance, from the order and the shop's settings. */
export function balanceOf(
  order: { status: OrderStatus; total_cents: number; bank_reference: string | null },
  extra: { paidCents: number; dueOn: string | null; today: string },
  bank: Pick<DepositsConfig, 'bankAccountHolder' | 'bankIban' | 'bankBic'>,
): Balance | null {
  if (order.status !== 'reserved' || !order.bank_reference || !extra.dueOn) return null;
  return {
    amountCents: Math.max(0, order.total_cents - extra.paidCents),
    dueOn: extra.dueOn,
    reference: order.bank_reference,
    accountHolder: bank.bankAccountHolder,
    iban: bank.bankIban,
    bic: bank.bankBic,
    overdue: extra.today > extra.dueOn,
  };
}

/**
 * The order history: the user's orders that were paid at some point, even in part (a deposit),
 * whatever they are now, newest first. Unpaid attempts (pending, failed, expired, a cancelled
 * checkout) stay out.
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
    .where((eb) =>
      eb.or([
        eb('paid_at', 'is not', null),
        eb.exists(
          eb.selectFrom('order_payments as p').select('p.id').whereRef('p.order_id', '=', 'orders.id').where('p.status', '=', 'succeeded'),
        ),
      ]),
    )
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
export async function findOrderOfUser(
  db: Db,
  userId: string,
  orderId: string,
  bank: Pick<DepositsConfig, 'bankAccountHolder' | 'bankIban' | 'bankBic'>,
): Promise<Order | undefined> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .select([
      sql<string | null>`to_char(balance_due_on, 'YYYY-MM-DD')`.as('due_on'),
      sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM-DD')`.as('today'),
      sql<string>`(select coalesce(sum(e.amount_cents), 0) from order_ledger_entries e where e.order_id = orders.id and e.kind in ('card_capture', 'bank_transfer_in'))::text`.as(
        'paid_cents',
      ),
    ])
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
      .select(['from_status', 'to_status', 'at', 'amount_cents', 'note'])
      .where('order_id', '=', order.id)
      .orderBy('at')
      .orderBy('id')
      .execute(),
    refundTotals(db, order.id),
  ]);
  const paidCents = Number(order.paid_cents);
  return rowToOrder(order, items.map(rowToOrderItem), {
    refundedCents: totals.refundedCents,
    paidCents,
    balance: balanceOf(order, { paidCents, dueOn: order.due_on, today: order.today }, bank),
    timeline: events.map((event) => ({
      status: event.to_status,
      at: event.at.toISOString(),
      amountCents: event.amount_cents,
      note: shopperNote(event),
    })),
  });
}
