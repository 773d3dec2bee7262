import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { releaseOrderStock, reserveOrderStock } from './stock.repository.js';

// Holds: while an open order holds its one-off boats, nobody else can reserve them. A hold has a
// deadline (orders.hold_expires_at): an unpaid card checkout holds for CHECKOUT_HOLD_MINUTES, a
// paid deposit until the balance is due, an accepted offer while the offer is valid. When the
// deadline passes, the hold-expiry job gives the units back; the order itself stays as it is (an
// unpaid one expires later, on its own clock). A payment that lands after its hold ended takes
// the units again if they are still free, else the order is `short` and its card money goes back
// automatically (ledger/unavailable-boat.ts).

type Trx = Transaction<Database>;

/** Orders in these states may hold units; a paid order's units are sold, not held. */
const HOLDING_STATES = ['pending', 'failed', 'reserved'] as const;

async function lockOrder(trx: Trx, orderId: string) {
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'status', 'stock_status'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!order) throw notFound('Order not found');
  return order;
}

/**
 * Holds the order's one-off boats until `until` (null: no deadline), in the caller's transaction.
 * An order already holding them gets the new deadline; one whose hold ended takes the units again
 * if they are free. Throws 409 OUT_OF_STOCK (nothing held) when another open order holds or bought
 * a unit, 409 HOLD_NOT_POSSIBLE when the order is not open or its boats were sold already.
 * Returns the number of units the order holds (0: nothing in it is a one-off boat).
 */
export async function placeOrderHold(trx: Trx, orderId: string, until: Date | null): Promise<number> {
  const order = await lockOrder(trx, orderId);
  if (!(HOLDING_STATES as readonly string[]).includes(order.status)) {
    throw new ApiError(409, 'HOLD_NOT_POSSIBLE', `The order is ${order.status}: it cannot hold boats.`);
  }
  let units: number;
  if (order.stock_status === 'reserved') {
    const held = await trx
      .selectFrom('order_items')
      .select(sql<number>`coalesce(sum(reserved_units), 0)::integer`.as('units'))
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    units = held.units;
  } else if (order.stock_status === null || order.stock_status === 'released') {
    units = await reserveOrderStock(trx, orderId);
  } else {
    throw new ApiError(409, 'HOLD_NOT_POSSIBLE', `The order's boats are ${order.stock_status} already.`);
  }
  if (units > 0) await trx.updateTable('orders').set({ hold_expires_at: until }).where('id', '=', orderId).execute();
  return units;
}

/**
 * Gives the order's held units back now (an offer withdrawn, a hold no longer wanted), in the
 * caller's transaction. Idempotent: answers false when the order held nothing.
 */
export async function releaseOrderHold(trx: Trx, orderId: string): Promise<boolean> {
  await lockOrder(trx, orderId);
  const released = await releaseOrderStock(trx, orderId);
  if (released) await trx.updateTable('orders').set({ hold_expires_at: null }).where('id', '=', orderId).execute();
  return released;
}

/**
 * The hold-expiry job: every open order whose hold deadline has passed gives its units back. Each
 * order in its own transaction under its row lock, the deadline checked again there: a payment
 * that took the lock first (sold the units) or a renewed checkout (new deadline) keeps them.
 * Returns how many holds ended.
 */
export async function releaseExpiredHolds(db: Kysely<Database>, log?: FastifyBaseLogger, limit = 200): Promise<number> {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where('stock_status', '=', 'reserved')
    .where('hold_expires_at', '<', sql<Date>`now()`)
    .where('status', 'in', HOLDING_STATES)
    .orderBy('hold_expires_at')
    .limit(limit)
    .execute();
  let released = 0;
  for (const { id } of due) {
    const done = await db.transaction().execute(async (trx) => {
      const still = await trx
        .selectFrom('orders')
        .select('id')
        .where('id', '=', id)
        .where('stock_status', '=', 'reserved')
        .where('hold_expires_at', '<', sql<Date>`now()`)
        .where('status', 'in', HOLDING_STATES)
        .forUpdate()
        .executeTakeFirst();
      return still ? releaseOrderStock(trx, id) : false;
    });
    if (done) released += 1;
  }
  if (released > 0) log?.info({ released }, 'holds of one-off boats ended');
  return released;
}

/** The deadline of a paid deposit's hold: the end of the day the balance is due (UTC). */
export function depositHoldUntil(balanceDueOn: Date | string): Date {
  const day = typeof balanceDueOn === 'string' ? new Date(`${balanceDueOn.slice(0, 10)}T00:00:00.000Z`) : new Date(balanceDueOn);
  day.setUTCHours(0, 0, 0, 0);
  return new Date(day.getTime() + 24 * 60 * 60 * 1000);
}

export interface HoldLimits {
  maxPerAccount: number;
  maxPerAddress: number;
}

/**
 * The limits of unpaid holds, checked in the checkout's transaction after the order took its
 * units: the account's row is locked by the caller, and the client address is serialised by a
 * transaction-scoped advisory lock, so racing checkouts count each other. Throws 429 TOO_MANY_HOLDS.
 */
export async function checkHoldLimits(
  trx: Trx,
  input: { orderId: string; userId: string; clientAddress: string | null; limits: HoldLimits },
): Promise<void> {
  const open = (column: 'user_id' | 'client_address', value: string) =>
    trx
      .selectFrom('orders')
      .select(sql<number>`count(*)::integer`.as('n'))
      .where(column, '=', value)
      .where('stock_status', '=', 'reserved')
      .where('status', 'in', ['pending', 'failed'])
      .where('id', '!=', input.orderId)
      .executeTakeFirstOrThrow();
  const byAccount = await open('user_id', input.userId);
  if (byAccount.n >= input.limits.maxPerAccount) {
    throw new ApiError(
      429,
      'TOO_MANY_HOLDS',
      `Your account already holds ${byAccount.n} boat${byAccount.n === 1 ? '' : 's'} in unpaid checkouts. Pay for one, or wait until its hold ends, before reserving another.`,
    );
  }
  if (input.clientAddress === null) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`hold-address:${input.clientAddress}`}, 0))`.execute(trx);
  const byAddress = await open('client_address', input.clientAddress);
  if (byAddress.n >= input.limits.maxPerAddress) {
    throw new ApiError(
      429,
      'TOO_MANY_HOLDS',
      'Too many boats are held in unpaid checkouts from your network. Pay for one, or wait until a hold ends, before reserving another.',
    );
  }
}

/**
 * A deposit was paid: the order keeps its boats until the balance is due. An order whose checkout
 * hold had ended takes its units again if they are still free; if another order holds or bought
 * them, it is `short` (the caller refunds the deposit). Returns the order's stock status after.
 */
export async function holdForDeposit(trx: Trx, orderId: string): Promise<'reserved' | 'short' | null> {
  const order = await trx
    .selectFrom('orders')
    .select(['stock_status', 'balance_due_on'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  let status = order.stock_status;
  if (status === 'released') {
    try {
      await reserveOrderStock(trx, orderId);
      status = 'reserved';
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'OUT_OF_STOCK') throw err;
      // Nothing was written: the check runs before any update.
      await trx.updateTable('orders').set({ stock_status: 'short', hold_expires_at: null }).where('id', '=', orderId).execute();
      return 'short';
    }
  }
  if (status !== 'reserved') return null;
  const until = order.balance_due_on ? depositHoldUntil(order.balance_due_on as Date | string) : null;
  await trx.updateTable('orders').set({ hold_expires_at: until }).where('id', '=', orderId).execute();
  return 'reserved';
}
