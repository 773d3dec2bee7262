import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { isUuid } from '@boatshop/contract';
import type { Availability, Category, Product, ProductPage } from '@boatshop/contract';
import { BOAT_SPEC_COLUMNS, rowToSpecs } from './boat-specs.js';
import type { ProductsTable } from './products.table.js';

export const PRODUCT_COLUMNS = [
  'id',
  'name',
  'thumbnail_url',
  'price_cents',
  'description_html',
  'category',
  'created_at',
  'stock_on_hand',
  'stock_reserved',
  ...BOAT_SPEC_COLUMNS,
  'sea_trials',
] as const;

type ProductColumns = Pick<Selectable<ProductsTable>, (typeof PRODUCT_COLUMNS)[number]>;

function availabilityOf(onHand: number | null, reserved: number): Availability {
  if (onHand === null || onHand > reserved) return 'in_stock';
  return reserved > 0 ? 'reserved' : 'sold_out';
}

export function rowToProduct(row: ProductColumns): Product {
  return {
    id: row.id,
    name: row.name,
    thumbnailUrl: row.thumbnail_url,
    priceCents: row.price_cents,
    descriptionHtml: row.description_html,
    category: row.category,
    createdAt: row.created_at.toISOString(),
    stock: row.stock_on_hand === null ? null : Math.max(0, row.stock_on_hand - row.stock_reserved),
    availability: availabilityOf(row.stock_on_hand, row.stock_reserved),
    specs: rowToSpecs(row),
    seaTrials: row.sea_trials,
  };
}

/**
 * Opaque to clients (base64url JSON): the sort key of the page's last row. A search cursor also
 * carries the rank, since search results are ordered by (rank, created_at, id).
 */
export interface ProductCursor {
  createdAt: Date;
  id: string;
  rank?: number;
}

export function encodeCursor(cursor: ProductCursor): string {
  const payload = { c: cursor.createdAt.toISOString(), i: cursor.id, ...(cursor.rank !== undefined ? { r: cursor.rank } : {}) };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

const INVALID_CURSOR = 'Invalid cursor: start again from the first page';
const MIN_CURSOR_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const MAX_CURSOR_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * ts_rank gives a non-negative `real`; the cursor's rank is cast back to real in SQL, where a
 * double beyond real's range (about 1e-38 to 3e38) is an error, not a comparison.
 */
function isRealRank(value: unknown): value is number {
  return typeof value === 'number' && (value === 0 || (value >= 1e-37 && value <= 1e37));
}

export function decodeCursor(raw: string, forSearch: boolean): ProductCursor {
  let payload: { c?: unknown; i?: unknown; r?: unknown };
  try {
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  const createdAt = typeof payload?.c === 'string' ? new Date(payload.c) : null;
  // JavaScript parses dates (years -271821 to 275760) that PostgreSQL's timestamptz cannot hold:
  // no row was ever made outside years 1 to 9999, so anything else is a forged cursor.
  const validDate = createdAt !== null && createdAt.getTime() >= MIN_CURSOR_TIME && createdAt.getTime() <= MAX_CURSOR_TIME;
  const validId = typeof payload?.i === 'string' && isUuid(payload.i);
  // A listing cursor must not be replayed on a search and vice versa: their orders differ.
  const validRank = forSearch ? isRealRank(payload?.r) : payload?.r === undefined;
  if (!validDate || !validId || !validRank) throw badRequest(INVALID_CURSOR);
  return { createdAt: createdAt!, id: payload.i as string, ...(forSearch ? { rank: payload.r as number } : {}) };
}

export interface ListProductsOptions {
  category?: Category | undefined;
  /** web-search syntax ("quoted phrase", or, -exclude); blank means no search */
  query?: string | undefined;
  /** leave out sold-out products (reserved ones stay: they may come back) */
  availableOnly?: boolean | undefined;
  cursor?: string | undefined;
  limit: number;
}

/**
 * Newest first, keyset-paged on (created_at, id) so the thousandth page costs what the first
 * does (index-only on (created_at desc, id desc), or the category-led index when filtered).
 * A search orders by rank first and pages on (rank, created_at, id), without OFFSET either.
 */
export async function listProducts(db: Db, options: ListProductsOptions): Promise<ProductPage> {
  const query = options.query?.trim() || undefined;
  const cursor = options.cursor ? decodeCursor(options.cursor, query !== undefined) : undefined;

  let select = db.selectFrom('products').select(PRODUCT_COLUMNS);
  if (options.category) select = select.where('category', '=', options.category);
  if (options.availableOnly) select = select.where((eb) => eb.or([eb('stock_on_hand', 'is', null), eb('stock_on_hand', '>', 0)]));

  let rows: (ProductColumns & { rank?: number })[];
  if (query !== undefined) {
    const tsquery = sql`websearch_to_tsquery('english', ${query})`;
    // Cast to real so the rank in the cursor compares exactly with the recomputed one.
    const rank = sql<number>`ts_rank(search, ${tsquery})::real`;
    let ranked = select.select(rank.as('rank')).where(sql<boolean>`search @@ ${tsquery}`);
    if (cursor) {
      ranked = ranked.where(sql<boolean>`(${rank}, created_at, id) < (${cursor.rank}::real, ${cursor.createdAt}, ${cursor.id}::uuid)`);
    }
    rows = await ranked
      .orderBy('rank', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit + 1)
      .execute();
  } else {
    if (cursor) {
      select = select.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(cursor.createdAt, cursor.id)));
    }
    rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit + 1)
      .execute();
  }

  // One row more than the page tells whether another page exists, without a count.
  const isLastPage = rows.length <= options.limit;
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    data: page.map(rowToProduct),
    cursor:
      isLastPage || !last
        ? null
        : encodeCursor({ createdAt: last.created_at, id: last.id, ...(query !== undefined ? { rank: last.rank! } : {}) }),
    isLastPage,
  };
}

export async function findProductById(db: Db, id: string): Promise<Product | undefined> {
  const row = await db.selectFrom('products').select(PRODUCT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? rowToProduct(row) : undefined;
}

/** The products that exist among `ids`, in the order asked for. */
export async function findProductsByIds(db: Db, ids: readonly string[]): Promise<Product[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('products').select(PRODUCT_COLUMNS).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, rowToProduct(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
