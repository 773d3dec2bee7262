import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Product, ProductInput } from '@boatshop/contract';
import { specsToRow } from './boat-specs.js';
import { PRODUCT_COLUMNS, rowToProduct } from './products.repository.js';

function toRow(input: ProductInput) {
  return {
    name: input.name,
    thumbnail_url: input.thumbnailUrl,
    price_cents: input.priceCents,
    description_html: input.descriptionHtml,
    category: input.category,
    // Specifications left out stay as they are (all unknown on a new product).
    ...(input.specs ? specsToRow(input.specs) : {}),
    ...(input.seaTrials === undefined ? {} : { sea_trials: input.seaTrials }),
  };
}

export async function insertProduct(db: Db, input: ProductInput, createdBy: string): Promise<Product> {
  const row = await db
    .insertInto('products')
    .values({ ...toRow(input), stock_on_hand: input.stock ?? null, created_by: createdBy })
    .returning(PRODUCT_COLUMNS)
    .executeTakeFirstOrThrow();
  return rowToProduct(row);
}

/**
 * The product as updated, or undefined when there is no such product. Its creator stays. The stock
 * the admin gives is what shoppers can buy now, so units held by open orders are added in the same
 * statement (a reservation committed meanwhile is counted, never lost).
 */
export async function updateProduct(db: Db, id: string, input: ProductInput): Promise<Product | undefined> {
  const stock =
    input.stock === undefined ? {} : { stock_on_hand: input.stock === null ? null : sql<number>`${input.stock}::integer + stock_reserved` };
  const row = await db
    .updateTable('products')
    .set({ ...toRow(input), ...stock })
    .where('id', '=', id)
    .returning(PRODUCT_COLUMNS)
    .executeTakeFirst();
  return row ? rowToProduct(row) : undefined;
}

/**
 * Deletes for real, so the product leaves the shop, its search index and every cart lookup.
 * Orders keep their item snapshots; their product_id becomes null (on delete set null).
 */
export async function deleteProduct(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('products').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
