import { MAX_FAVOURITES, type Favourite } from '@boatshop/contract';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { PRODUCT_COLUMNS, rowToProduct } from '../products/products.repository.js';

/**
 * A shopper's favourite boats. Adding and removing are idempotent (the key is account + boat), so
 * a double click or a retried request leaves one favourite or none; only the owner reads them.
 */

export async function listFavourites(db: Db, userId: string): Promise<Favourite[]> {
  const kept = await db
    .selectFrom('favourites')
    .select(['product_id', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('product_id')
    .execute();
  if (kept.length === 0) return [];
  const rows = await db
    .selectFrom('products')
    .select(PRODUCT_COLUMNS)
    .where(
      'id',
      'in',
      kept.map((row) => row.product_id),
    )
    .execute();
  const products = new Map(rows.map((row) => [row.id, rowToProduct(row)]));
  return kept.flatMap((row) => {
    const product = products.get(row.product_id);
    return product ? [{ product, addedAt: row.created_at.toISOString() }] : [];
  });
}

export async function favouriteIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('favourites').select('product_id').where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
  return rows.map((row) => row.product_id);
}

/** Keeps a boat; a boat kept already stays as it was. 404 for an unknown boat, 409 past the limit. */
export async function addFavourite(db: Kysely<Database>, userId: string, productId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Holding the user row makes one account's additions take turns, so the limit holds.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const product = await trx.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst();
    if (!product) throw notFound('Product not found');
    const kept = await trx
      .selectFrom('favourites')
      .select([
        (eb) => eb.fn.countAll<string>().as('count'),
        (eb) => eb.fn.countAll<string>().filterWhere('product_id', '=', productId).as('this'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(kept.this) > 0) return;
    if (Number(kept.count) >= MAX_FAVOURITES) {
      throw conflict('FAVOURITES_FULL', `You can keep ${MAX_FAVOURITES} favourites at most: remove one first.`);
    }
    await trx
      .insertInto('favourites')
      .values({ user_id: userId, product_id: productId })
      .onConflict((oc) => oc.columns(['user_id', 'product_id']).doNothing())
      .execute();
  });
}

/** Forgets a boat; one that was not kept is no error. */
export async function removeFavourite(db: Db, userId: string, productId: string): Promise<void> {
  await db.deleteFrom('favourites').where('user_id', '=', userId).where('product_id', '=', productId).execute();
}
