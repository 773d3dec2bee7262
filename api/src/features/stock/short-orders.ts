import type { ProductPage } from '@boatshop/contract';
import type { Db } from '../../db/database.js';

/**
 * The admin's catalogue page with, per boat, the open orders that were paid but whose unit went to
 * another order (stock `short`): money received, boat gone, until the order is refunded and closed.
 */
export async function withShortOrders(db: Db, page: ProductPage): Promise<ProductPage> {
  if (page.data.length === 0) return page;
  const rows = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.product_id', (eb) => eb.fn.count<string>('o.id').distinct().as('n')])
    .where(
      'i.product_id',
      'in',
      page.data.map((product) => product.id),
    )
    .where('o.stock_status', '=', 'short')
    .where('o.status', 'not in', ['cancelled', 'refunded'])
    .groupBy('i.product_id')
    .execute();
  const counts = new Map(rows.map((row) => [row.product_id, Number(row.n)]));
  return { ...page, data: page.data.map((product) => ({ ...product, shortOrders: counts.get(product.id) ?? 0 })) };
}
