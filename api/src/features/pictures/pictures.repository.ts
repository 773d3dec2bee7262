import { MAX_PICTURES_PER_PRODUCT, PICTURE_FORMATS, type Product, type ProductPicture } from '@boatshop/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import type { PictureRow } from './pictures.table.js';
import { CARD_WIDTH, variantKey, variantKeys, type ProcessedPicture } from './process-picture.js';

/** Where the API serves a stored file (routes/api/pictures). */
export const pictureUrl = (key: string) => `/api/pictures/${key}`;

/** The JPEG closest to the card's width from below (the smallest when all are wider). */
function cardWidthOf(widths: readonly number[]): number {
  return [...widths].reverse().find((width) => width <= CARD_WIDTH) ?? widths[0]!;
}

export function rowToPicture(row: PictureRow): ProductPicture {
  if (row.storage_key === null) {
    return { id: row.id, alt: row.alt, src: row.url!, width: null, height: null, placeholder: null, variants: [] };
  }
  const widths = row.variant_widths!;
  const key = row.storage_key;
  return {
    id: row.id,
    alt: row.alt,
    src: pictureUrl(variantKey(row.product_id, key, cardWidthOf(widths), 'jpeg')),
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    variants: PICTURE_FORMATS.flatMap((format) =>
      widths.map((width) => ({ format, width, url: pictureUrl(variantKey(row.product_id, key, width, format)) })),
    ),
  };
}

/** The stored files of these pictures (none for linked ones). */
export function storedKeysOf(rows: readonly PictureRow[]): string[] {
  return rows.flatMap((row) => (row.storage_key ? variantKeys(row.product_id, row.storage_key, row.variant_widths!) : []));
}

/**
 * A boat's pictures as shoppers get them. A boat written without picture rows (by SQL, a bulk
 * import) shows its card picture alone, under the boat's own id.
 */
export async function picturesOfProduct(db: Db, product: Product): Promise<ProductPicture[]> {
  const rows = await listPictureRows(db, product.id);
  if (rows.length > 0) return rows.map(rowToPicture);
  return [{ id: product.id, alt: product.name, src: product.thumbnailUrl, width: null, height: null, placeholder: null, variants: [] }];
}

export async function listPictureRows(db: Db, productId: string): Promise<PictureRow[]> {
  return db.selectFrom('product_pictures').selectAll().where('product_id', '=', productId).orderBy('position').execute();
}

/**
 * Locks the boat's row for the rest of the transaction: every change of its pictures takes this
 * lock first, so two admins' uploads, reorders and deletions of one boat run one after the other.
 */
async function lockProduct(trx: Db, productId: string): Promise<void> {
  const product = await trx.selectFrom('products').select('id').where('id', '=', productId).forUpdate().executeTakeFirst();
  if (!product) throw notFound('Product not found');
}

/** products.thumbnail_url follows the first picture (cards, orders' snapshots, the page head read it). */
async function followFirstPicture(trx: Db, productId: string): Promise<void> {
  const first = await trx
    .selectFrom('product_pictures')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  if (first)
    await trx
      .updateTable('products')
      .set({ thumbnail_url: rowToPicture(first).src })
      .where('id', '=', productId)
      .execute();
}

/** Records an upload whose files are already stored, as the boat's last picture. */
export async function addUploadedPicture(db: Db, productId: string, picture: ProcessedPicture, alt: string): Promise<PictureRow> {
  return db.transaction().execute(async (trx) => {
    await lockProduct(trx, productId);
    const rows = await listPictureRows(trx, productId);
    if (rows.length >= MAX_PICTURES_PER_PRODUCT) {
      throw conflict('TOO_MANY_PICTURES', `A boat has at most ${MAX_PICTURES_PER_PRODUCT} pictures: delete one first`);
    }
    if (rows.some((row) => row.storage_key === picture.storageKey)) {
      throw conflict('DUPLICATE_PICTURE', 'This picture is already in the gallery');
    }
    const row = await trx
      .insertInto('product_pictures')
      .values({
        product_id: productId,
        position: rows.length,
        alt,
        url: null,
        storage_key: picture.storageKey,
        width: picture.width,
        height: picture.height,
        variant_widths: picture.variantWidths,
        placeholder: picture.placeholder,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await followFirstPicture(trx, productId);
    return row;
  });
}

/**
 * Puts the boat's pictures in the order given. The list must name every picture once: one made
 * from a stale view (a picture added or deleted meanwhile) is refused, never half applied. The
 * same order again changes nothing.
 */
export async function orderPictures(db: Db, productId: string, ids: readonly string[]): Promise<PictureRow[]> {
  return db.transaction().execute(async (trx) => {
    await lockProduct(trx, productId);
    const rows = await listPictureRows(trx, productId);
    const wanted = ids.map((id) => id.toLowerCase());
    const known = new Set(rows.map((row) => row.id));
    if (wanted.length !== rows.length || !wanted.every((id) => known.has(id))) {
      throw conflict('PICTURES_CHANGED', 'The pictures changed meanwhile: reload them and order again');
    }
    if (wanted.every((id, index) => rows[index]!.id === id)) return rows;
    // One statement: the unique (product, position) constraint is checked at its end.
    await sql`
      update product_pictures as picture set position = (wanted.ordinal - 1)::integer
      from unnest(${wanted}::uuid[]) with ordinality as wanted(id, ordinal)
      where picture.id = wanted.id and picture.product_id = ${productId}
    `.execute(trx);
    await followFirstPicture(trx, productId);
    return listPictureRows(trx, productId);
  });
}

export async function updatePictureAlt(db: Db, productId: string, pictureId: string, alt: string): Promise<PictureRow> {
  const row = await db
    .updateTable('product_pictures')
    .set({ alt })
    .where('id', '=', pictureId)
    .where('product_id', '=', productId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Picture not found');
  return row;
}

/** Deletes one picture and closes the gap; answers its stored files, for the caller to remove once committed. */
export async function deletePicture(db: Db, productId: string, pictureId: string): Promise<PictureRow> {
  return db.transaction().execute(async (trx) => {
    await lockProduct(trx, productId);
    const rows = await listPictureRows(trx, productId);
    const row = rows.find((candidate) => candidate.id === pictureId);
    if (!row) throw notFound('Picture not found');
    // Cards, orders and the page head need a picture: the last one is replaced, not deleted.
    if (rows.length === 1)
      throw new ApiError(409, 'LAST_PICTURE', 'A boat keeps at least one picture: add another before deleting this one');
    await trx.deleteFrom('product_pictures').where('id', '=', pictureId).execute();
    await trx
      .updateTable('product_pictures')
      .set({ position: sql<number>`position - 1` })
      .where('product_id', '=', productId)
      .where('position', '>', row.position)
      .execute();
    await followFirstPicture(trx, productId);
    return row;
  });
}

/**
 * The address the admin typed in the product form becomes the boat's first picture: it replaces
 * a linked first picture, or goes in front of an uploaded one. The current card address again
 * changes nothing.
 */
export async function setTypedPicture(trx: Db, productId: string, url: string, alt: string): Promise<void> {
  const rows = await listPictureRows(trx, productId);
  const first = rows[0];
  if (first && rowToPicture(first).src === url) return;
  if (first && first.storage_key === null) {
    await trx.updateTable('product_pictures').set({ url }).where('id', '=', first.id).execute();
  } else {
    if (rows.length >= MAX_PICTURES_PER_PRODUCT) {
      throw conflict('TOO_MANY_PICTURES', `A boat has at most ${MAX_PICTURES_PER_PRODUCT} pictures: delete one first`);
    }
    await trx
      .updateTable('product_pictures')
      .set({ position: sql<number>`position + 1` })
      .where('product_id', '=', productId)
      .execute();
    await trx
      .insertInto('product_pictures')
      .values({ product_id: productId, position: 0, url, alt: alt.slice(0, 300) })
      .execute();
  }
  await followFirstPicture(trx, productId);
}

/** The stored files of every picture of these boats (read before deleting them). */
export async function storedKeysOfProducts(db: Db, productIds: readonly string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const rows = await db.selectFrom('product_pictures').selectAll().where('product_id', 'in', productIds).execute();
  return storedKeysOf(rows);
}
