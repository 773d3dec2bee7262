import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError } from '../../lib/errors.js';

// Stock of one-off boats. A product's row holds its units on hand (null = built to order) and the
// units held by open orders; an order records what each of its lines took (order_items.reserved_units)
// and where those units are (orders.stock_status). Every function takes the caller's transaction:
// the order's own state change and the stock move commit together or not at all.
//
//   open order  -> reserveOrderStock   stock_status null     -> reserved  (products.stock_reserved += n)
//   failed, expired, cancelled
//               -> releaseOrderStock   reserved              -> released  (stock_reserved -= n)
//   paid        -> sellOrderStock      reserved              -> sold      (stock_on_hand -= n, stock_reserved -= n)
//                                      released (a declined card, then a retry on the same intent succeeded)
//                                                            -> sold when the units are still free, else short
//   cancelled after payment, before shipping
//               -> restockOrderStock   sold                  -> restocked (stock_on_hand += n)
//
// Release and sale start with a conditional UPDATE of orders.stock_status: a second call, or a
// concurrent one (it waits for the first's row lock, then finds the status changed), does nothing.

export function outOfStock(name: string, available: number): ApiError {
  const message =
    available > 0
      ? `Only ${available} of ${name} can be bought now: the others have just been reserved or sold.`
      : `${name} has just been reserved or sold.`;
  return new ApiError(409, 'OUT_OF_STOCK', message, { details: [name] });
}

interface StockedLine {
  item_id: string;
  product_id: string;
  name: string;
  quantity: number;
  stock_on_hand: number;
  stock_reserved: number;
}

/**
 * Holds the units of the order's stocked products (built-to-order ones need none), or throws 409
 * OUT_OF_STOCK naming the first boat that does not have enough free units; the caller's transaction
 * then rolls back with the order. The product rows are locked in id order before they are read,
 * so twenty shoppers racing for the last boat queue on its row and exactly one finds it free, and
 * two orders sharing several boats cannot deadlock. The lock is FOR NO KEY UPDATE (what an UPDATE
 * of a non-key column takes anyway): the order's own items already hold FOR KEY SHARE on their
 * products through the foreign key, and FOR UPDATE would wait on every other open order's share. Nothing is written when no line is stocked, so
 * buying built-to-order boats does not empty the catalogue cache.
 * Returns the number of units reserved.
 */
export async function reserveOrderStock(trx: Transaction<Database>, orderId: string): Promise<number> {
  const { rows } = await sql<StockedLine>`
    select i.id as item_id, p.id as product_id, p.name, i.quantity, p.stock_on_hand, p.stock_reserved
    from order_items i
    join products p on p.id = i.product_id
    where i.order_id = ${orderId}::uuid and p.stock_on_hand is not null
    order by p.id
    for no key update of p
  `.execute(trx);
  if (rows.length === 0) return 0;

  for (const line of rows) {
    const available = line.stock_on_hand - line.stock_reserved;
    if (available < line.quantity) throw outOfStock(line.name, Math.max(0, available));
  }
  for (const line of rows) {
    await trx
      .updateTable('products')
      .set({ stock_reserved: sql`stock_reserved + ${line.quantity}` })
      .where('id', '=', line.product_id)
      .execute();
    await trx.updateTable('order_items').set({ reserved_units: line.quantity }).where('id', '=', line.item_id).execute();
  }
  await trx.updateTable('orders').set({ stock_status: 'reserved' }).where('id', '=', orderId).execute();
  return rows.reduce((sum, line) => sum + line.quantity, 0);
}

/** The units the order holds, per product (several lines of one product are summed). */
async function heldUnits(trx: Transaction<Database>, orderId: string): Promise<{ product_id: string; units: number }[]> {
  return trx
    .selectFrom('order_items')
    .select(['product_id', sql<number>`sum(reserved_units)::integer`.as('units')])
    .where('order_id', '=', orderId)
    .where('product_id', 'is not', null)
    .where('reserved_units', '>', 0)
    .groupBy('product_id')
    .orderBy('product_id')
    .execute() as Promise<{ product_id: string; units: number }[]>;
}

/**
 * Gives the order's reserved units back (the order failed, expired or was cancelled before it was
 * paid). Idempotent: only an order whose units are reserved releases them, once.
 * Returns true when this call released them.
 */
export async function releaseOrderStock(trx: Transaction<Database>, orderId: string): Promise<boolean> {
  const claimed = await trx
    .updateTable('orders')
    .set({ stock_status: 'released' })
    .where('id', '=', orderId)
    .where('stock_status', '=', 'reserved')
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return false;
  for (const { product_id, units } of await heldUnits(trx, orderId)) {
    await trx
      .updateTable('products')
      .set({ stock_reserved: sql`greatest(stock_reserved - ${units}, 0)` })
      .where('id', '=', product_id)
      .execute();
  }
  return true;
}

/**
 * The order was paid: its reserved units leave stock for good. Idempotent: the units are sold once.
 * An order released before its payment arrived (a declined card, then a successful retry on the
 * same intent) takes its units again if they are still free; if someone else holds or bought them
 * meanwhile, the order is marked `short` (money received, boat gone: an admin must refund) and
 * the shop still never counts more units sold than it had. Returns the order's new stock status,
 * or undefined when this call changed nothing.
 */
export async function sellOrderStock(trx: Transaction<Database>, orderId: string): Promise<'sold' | 'short' | undefined> {
  const order = await trx.selectFrom('orders').select('stock_status').where('id', '=', orderId).forUpdate().executeTakeFirst();
  if (!order) return undefined;

  if (order.stock_status === 'reserved') {
    for (const { product_id, units } of await heldUnits(trx, orderId)) {
      await trx
        .updateTable('products')
        .set({
          stock_reserved: sql`greatest(stock_reserved - ${units}, 0)`,
          // A product switched to built to order meanwhile stays unlimited.
          stock_on_hand: sql`case when stock_on_hand is null then null else greatest(stock_on_hand - ${units}, 0) end`,
        })
        .where('id', '=', product_id)
        .execute();
    }
    await trx.updateTable('orders').set({ stock_status: 'sold' }).where('id', '=', orderId).execute();
    return 'sold';
  }

  if (order.stock_status === 'released') {
    let short = false;
    for (const { product_id, units } of await heldUnits(trx, orderId)) {
      const taken = await trx
        .updateTable('products')
        .set({ stock_on_hand: sql`stock_on_hand - ${units}` })
        .where('id', '=', product_id)
        // Parenthesised: Kysely joins raw conditions with AND as they are, and an unbracketed OR
        // took a unit of every product with one free.
        .where(sql<boolean>`(stock_on_hand is null or stock_on_hand - stock_reserved >= ${units})`)
        .returning('id')
        .executeTakeFirst();
      if (!taken) short = true;
    }
    const status = short ? 'short' : 'sold';
    await trx.updateTable('orders').set({ stock_status: status }).where('id', '=', orderId).execute();
    return status;
  }
  return undefined;
}

/**
 * A paid order cancelled before it shipped (admin cancel with a full refund): the boat never left,
 * so its sold units go back on hand and the boat is for sale again. Idempotent and race-safe: the
 * conditional UPDATE from 'sold' lets one call through; a second or concurrent one (it waits for
 * the first's row lock, then finds 'restocked') changes nothing. A 'short' order took no units.
 * Returns true when this call put units back.
 */
export async function restockOrderStock(trx: Transaction<Database>, orderId: string): Promise<boolean> {
  const claimed = await trx
    .updateTable('orders')
    .set({ stock_status: 'restocked' })
    .where('id', '=', orderId)
    .where('stock_status', '=', 'sold')
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return false;
  for (const { product_id, units } of await heldUnits(trx, orderId)) {
    await trx
      .updateTable('products')
      // A product switched to built to order meanwhile stays unlimited.
      .set({ stock_on_hand: sql`case when stock_on_hand is null then null else stock_on_hand + ${units} end` })
      .where('id', '=', product_id)
      .execute();
  }
  return true;
}
