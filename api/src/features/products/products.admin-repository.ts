import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Product, ProductInput } from '@boatshop/contract';
import { specsToRow } from './boat-specs.js';
import { PRODUCT_COLUMNS, rowToProduct } from './products.repository.js';
import { setTypedPicture, storedKeysOfProducts } from '../pictures/pictures.repository.js';

function toRow(input: ProductInput) {
  return {
    name: input.name,
    price_cents: input.priceCents,
    description_html: input.descriptionHtml,
    category: input.category,
    // Specifications left out stay as they are (all unknown on a new product).
    ...(input.specs ? specsToRow(input.specs) : {}),
    ...(input.seaTrials === undefined ? {} : { sea_trials: input.seaTrials }),
  };
}

export async function insertProduct(db: Db, input: ProductInput, createdBy: string): Promise<Product> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('products')
      .values({ ...toRow(input), thumbnail_url: input.thumbnailUrl, stock_on_hand: input.stock ?? null, created_by: createdBy })
      .returning(PRODUCT_COLUMNS)
      .executeTakeFirstOrThrow();
    // The typed address is the boat's first picture.
    await trx
      .insertInto('product_pictures')
      .values({ product_id: row.id, position: 0, url: input.thumbnailUrl, alt: row.name.slice(0, 300) })
      .execute();
    return rowToProduct(row);
  });
}

/**
 * The product as updated, or undefined when there is no such product. Its creator stays. The stock
 * the admin gives is what shoppers can buy now, so units held by open orders are added in the same
 * statement (a reservation committed meanwhile is counted, never lost). A new picture address
 * becomes the first picture (setTypedPicture); the current card address leaves the pictures alone.
 */
export async function updateProduct(db: Db, id: string, input: ProductInput): Promise<Product | undefined> {
  const stock =
    input.stock === undefined ? {} : { stock_on_hand: input.stock === null ? null : sql<number>`${input.stock}::integer + stock_reserved` };
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('products')
      .set({ ...toRow(input), ...stock })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!updated) return undefined;
    await setTypedPicture(trx, id, input.thumbnailUrl, input.name);
    const row = await trx.selectFrom('products').select(PRODUCT_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
    return rowToProduct(row);
  });
}

/**
 * Deletes for real, so the product leaves the shop, its search index and every cart lookup.
 * Orders keep their item snapshots; their product_id becomes null (on delete set null). Its
 * pictures' rows go with it (on delete cascade); the answer names their stored files, for the
 * caller to remove once this is committed. Null when there was no such product.
 */
export async function deleteProduct(db: Db, id: string): Promise<{ storedKeys: string[] } | null> {
  return db.transaction().execute(async (trx) => {
    const storedKeys = await storedKeysOfProducts(trx, [id]);
    const result = await trx.deleteFrom('products').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n ? { storedKeys } : null;
  });
}
