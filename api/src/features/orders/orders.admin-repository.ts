import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import type { UnmatchedPaymentsTable } from '../payments/unmatched-payments.table.js';
import { refundableCents, refundTotals } from './refund-totals.js';
import { refusal } from './order-state.js';
import {
  isUuid,
  type AdminOrder,
  type AdminOrderPage,
  type AdminOrderQuery,
  type AdminOrderSummary,
  type OrderAction,
  type OrderEvent,
  type PaymentLine,
  type Refund,
  type UnmatchedPayment,
} from '@boatshop/contract';
import { rowToOrderItem } from './orders.repository.js';
import type { OrderStatus } from '@boatshop/contract';
import type { OrderRow } from './orders.table.js';

/** Unpaid attempts stay out of the list unless the status filter asks for them. */
const HIDDEN_BY_DEFAULT: readonly OrderStatus[] = ['pending', 'failed'];

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  const year = createdAt.getUTCFullYear();
  if (rest.length > 0 || !id || !isUuid(id) || Number.isNaN(createdAt.getTime()) || year < 2000 || year > 9999) {
    throw badRequest('Invalid cursor: ask for the first page again');
  }
  return { createdAt, id };
}

function dayStart(value: string, field: string): Date {
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw badRequest(`Invalid request: ${field} is not a date`);
  return date;
}

function summaryQuery(db: Db) {
  return db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select([
      'o.id',
      'o.created_at',
      'o.status',
      'o.total_cents',
      'u.id as customer_id',
      'u.email as customer_email',
      'u.display_name as customer_name',
      // From the ledger: refunds, and what lost disputes took back.
      sql<string>`(select coalesce(-sum(e.amount_cents), 0) from order_ledger_entries e where e.order_id = o.id and e.kind in ('card_refund', 'bank_refund_out'))
        + (select coalesce(-sum(d.amount_cents), 0) from order_ledger_entries d where d.order_id = o.id and d.kind = 'dispute_opened'
           and exists (select 1 from order_ledger_entries c where c.dispute_id = d.dispute_id and c.kind = 'dispute_lost'))`.as(
        'refunded_cents',
      ),
      sql<string>`(select coalesce(sum(i.quantity), 0) from order_items i where i.order_id = o.id)::text`.as('item_count'),
      sql<string>`(select coalesce(sum(e.amount_cents), 0) from order_ledger_entries e where e.order_id = o.id and e.kind in ('card_capture', 'bank_transfer_in'))::text`.as(
        'paid_cents',
      ),
      sql<boolean>`(o.status = 'reserved' and o.balance_due_on < ${TODAY})`.as('overdue'),
      'o.stock_status',
    ]);
}

/** The shop's calendar day (UTC), as PostgreSQL sees it. */
const TODAY = sql<string>`(now() at time zone 'UTC')::date`;

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

function rowToSummary(row: SummaryRow): AdminOrderSummary {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    status: row.status,
    totalCents: row.total_cents,
    refundedCents: Number(row.refunded_cents),
    itemCount: Number(row.item_count),
    customer: { id: row.customer_id, email: row.customer_email, displayName: row.customer_name },
    balanceDueCents: row.status === 'reserved' ? Math.max(0, row.total_cents - Number(row.paid_cents)) : 0,
    overdue: row.overdue === true,
    stockStatus: row.stock_status,
  };
}

/** Newest first, a keyset page at a time; filters by state, day range and order id or e-mail. */
export async function listAdminOrders(db: Db, query: AdminOrderQuery): Promise<AdminOrderPage> {
  let select = summaryQuery(db);
  select = query.status ? select.where('o.status', '=', query.status) : select.where('o.status', 'not in', HIDDEN_BY_DEFAULT);
  if (query.overdue === true) select = select.where('o.status', '=', 'reserved').where(sql<boolean>`o.balance_due_on < ${TODAY}`);
  if (query.from) select = select.where('o.created_at', '>=', dayStart(query.from, 'from'));
  if (query.to) select = select.where('o.created_at', '<', new Date(dayStart(query.to, 'to').getTime() + 86_400_000));
  const q = query.q?.trim();
  if (q) {
    if (isUuid(q)) select = select.where('o.id', '=', q.toLowerCase());
    else if (/^[0-9a-f]{8}$/i.test(q)) {
      select = select.where((eb) =>
        eb.or([eb(sql`o.id::text`, 'like', `${q.toLowerCase()}%`), eb(sql`lower(u.email)`, 'like', `%${q.toLowerCase()}%`)]),
      );
    } else {
      const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      select = select.where(sql`lower(u.email)`, 'like', pattern);
    }
  }
  if (query.cursor) {
    const { createdAt, id } = decodeCursor(query.cursor);
    select = select.where((eb) => eb(eb.refTuple('o.created_at', 'o.id'), '<', eb.tuple(createdAt, id)));
  }
  const rows = await select
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const isLastPage = rows.length <= query.limit;
  return {
    data: page.map(rowToSummary),
    cursor: !isLastPage && last ? encodeCursor(last.created_at, last.id) : null,
    isLastPage,
  };
}

export function allowedActions(order: Pick<OrderRow, 'status' | 'shipped_at' | 'delivered_at'>, refundable: number): OrderAction[] {
  const actions: OrderAction[] = [];
  const admin = { type: 'admin', id: null } as const;
  if (!refusal(order, 'shipped', admin)) actions.push('ship');
  if (!refusal(order, 'delivered', admin)) actions.push('deliver');
  if (!refusal(order, 'cancelled', admin)) actions.push('cancel');
  if (['paid', 'shipped', 'delivered', 'partially_refunded'].includes(order.status) && refundable > 0) actions.push('refund');
  if (order.status === 'reserved') actions.push('record_transfer');
  return actions;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export async function findAdminOrder(db: Db, orderId: string): Promise<AdminOrder | undefined> {
  const summary = await summaryQuery(db).where('o.id', '=', orderId).executeTakeFirst();
  if (!summary) return undefined;
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .select(sql<string | null>`to_char(balance_due_on, 'YYYY-MM-DD')`.as('due_on'))
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const [items, payments, refunds, events, totals] = await Promise.all([
    db
      .selectFrom('order_items')
      .select(['product_id', 'name', 'thumbnail_url', 'unit_price_cents', 'quantity'])
      .where('order_id', '=', orderId)
      .orderBy('name')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('order_payments')
      .selectAll()
      .select(sql<string | null>`to_char(received_on, 'YYYY-MM-DD')`.as('received_day'))
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('order_refunds as r')
      .leftJoin('users as u', 'u.id', 'r.created_by_id')
      .selectAll('r')
      .select('u.display_name as actor_name')
      .where('r.order_id', '=', orderId)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute(),
    db
      .selectFrom('order_events as e')
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .selectAll('e')
      .select('u.display_name as actor_name')
      .where('e.order_id', '=', orderId)
      .orderBy('e.at')
      .orderBy('e.id')
      .execute(),
    refundTotals(db, orderId),
  ]);
  const refundable = refundableCents(totals);
  return {
    ...rowToSummary(summary),
    paidAt: iso(order.paid_at),
    items: items.map(rowToOrderItem),
    shipping: order.shipping,
    billing: order.billing,
    payments: payments.map((row): PaymentLine => ({
      id: row.id,
      method: row.method,
      amountCents: row.amount_cents,
      providerReference: row.provider_reference,
      status: row.status,
      createdAt: row.created_at.toISOString(),
      confirmedAt: iso(row.confirmed_at),
      receivedOn: row.received_day,
    })),
    refunds: refunds.map((row): Refund => ({
      id: row.id,
      amountCents: row.amount_cents,
      reason: row.reason,
      status: row.status,
      providerReference: row.provider_reference,
      createdAt: row.created_at.toISOString(),
      createdBy: { type: row.created_by_type, id: row.created_by_id, name: row.actor_name ?? null },
    })),
    events: events.map((row): OrderEvent => ({
      id: row.id,
      fromStatus: row.from_status,
      toStatus: row.to_status,
      at: row.at.toISOString(),
      actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name ?? null },
      amountCents: row.amount_cents,
      note: row.note,
    })),
    refundableCents: refundable,
    allowedActions: allowedActions(order, refundable),
    carrier: order.carrier,
    trackingNumber: order.tracking_number,
    paymentReference: order.bank_reference,
    balanceDueOn: order.due_on,
    depositCents: order.deposit_cents,
  };
}

function rowToUnmatched(row: Selectable<UnmatchedPaymentsTable>): UnmatchedPayment {
  return {
    id: row.id,
    providerReference: row.provider_reference,
    amountCents: row.amount_cents,
    currency: row.currency,
    reason: row.reason,
    receivedAt: row.received_at.toISOString(),
    resolvedAt: iso(row.resolved_at),
  };
}

/** Money received without a matching order, newest first; resolved ones stay listed with their date. */
export async function listUnmatchedPayments(db: Db): Promise<UnmatchedPayment[]> {
  const rows = await db.selectFrom('unmatched_payments').selectAll().orderBy('received_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(rowToUnmatched);
}

export async function resolveUnmatchedPayment(
  db: Db,
  input: { id: string; adminId: string; note: string | null },
): Promise<UnmatchedPayment | undefined> {
  await db
    .updateTable('unmatched_payments')
    .set({ resolved_at: sql<Date>`now()`, resolved_by: input.adminId, resolution_note: input.note })
    .where('id', '=', input.id)
    .where('resolved_at', 'is', null)
    .execute();
  const row = await db.selectFrom('unmatched_payments').selectAll().where('id', '=', input.id).executeTakeFirst();
  return row ? rowToUnmatched(row) : undefined;
}
