import { sql, type SqlBool } from 'kysely';
import { isUuid, type SearchQuery, type SearchResult, type SearchSort } from '@boatshop/contract';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { PRODUCT_COLUMNS, rowToProduct } from '../products/products.repository.js';
import { countFacets } from './facet-counts.js';
import { filtersOf, where } from './search-filters.js';
// ------------------------------------------------------------------------------------------
// Order and cursor: each sort is a key (nulls as the lowest value) then (created_at, id).

interface SortSpec {
  /** none for newest: (created_at, id) alone, the index the browse list uses */
  key: ReturnType<typeof sql<number>> | null;
  direction: 'asc' | 'desc';
}

const SORTS: Record<SearchSort, SortSpec> = {
  newest: { key: null, direction: 'desc' },
  'price-asc': { key: sql<number>`price_cents`, direction: 'asc' },
  'price-desc': { key: sql<number>`price_cents`, direction: 'desc' },
  length: { key: sql<number>`coalesce(length_overall_cm, -1)`, direction: 'desc' },
  year: { key: sql<number>`coalesce(year_built, -1)`, direction: 'desc' },
};

interface SearchCursor {
  sort: SearchSort;
  key: number;
  createdAt: Date;
  id: string;
}

const INVALID_CURSOR = 'Invalid cursor: start again from the first page';

function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.sort, k: cursor.key, c: cursor.createdAt.toISOString(), i: cursor.id })).toString(
    'base64url',
  );
}

function decodeCursor(raw: string, sort: SearchSort): SearchCursor {
  let payload: { s?: unknown; k?: unknown; c?: unknown; i?: unknown };
  try {
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  const createdAt = typeof payload?.c === 'string' ? new Date(payload.c) : null;
  const time = createdAt?.getTime() ?? Number.NaN;
  const valid =
    payload?.s === sort &&
    Number.isSafeInteger(payload.k) &&
    Math.abs(payload.k as number) <= 1e12 &&
    // Years 1 to 9999: what timestamptz can hold.
    time >= -62135596800000 &&
    time <= 253402300799999 &&
    typeof payload.i === 'string' &&
    isUuid(payload.i);
  if (!valid) throw badRequest(INVALID_CURSOR);
  return { sort, key: payload.k as number, createdAt: createdAt!, id: payload.i as string };
}

// ------------------------------------------------------------------------------------------

/**
 * A page of the boats matching every choice, in the order asked for, keyset-paged on
 * (sort key, created_at, id) so a deep page costs what the first does; with the number of
 * matches and every facet's counts.
 */
export async function searchProducts(db: Db, query: SearchQuery, options: { facetCells: boolean }): Promise<SearchResult> {
  const filters = filtersOf(query);
  const sort = SORTS[query.sort];
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort) : undefined;
  const limit = query.limit;

  const key = sort.key ?? sql<number>`0`;
  let page = db
    .selectFrom('products')
    .select(PRODUCT_COLUMNS)
    .select(key.as('sort_key'))
    .where((eb) => where(eb, filters));
  if (cursor) {
    const op = sort.direction === 'desc' ? sql.raw('<') : sql.raw('>');
    page = sort.key
      ? page.where(sql<SqlBool>`(${sort.key}, created_at, id) ${op} (${cursor.key}, ${cursor.createdAt}, ${cursor.id}::uuid)`)
      : page.where(sql<SqlBool>`(created_at, id) ${op} (${cursor.createdAt}, ${cursor.id}::uuid)`);
  }
  if (sort.key) page = page.orderBy(sort.key, sort.direction);
  const pageQuery = page
    .orderBy('created_at', sort.direction)
    .orderBy('id', sort.direction)
    .limit(limit + 1)
    .execute();

  const [rows, counted] = await Promise.all([pageQuery, countFacets(db, filters, { cells: options.facetCells })]);
  const isLastPage = rows.length <= limit;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map(rowToProduct),
    cursor:
      isLastPage || !last ? null : encodeCursor({ sort: query.sort, key: Number(last.sort_key), createdAt: last.created_at, id: last.id }),
    isLastPage,
    total: counted.total,
    facets: counted.facets,
  };
}

/**
 * The boats a saved search's alert lists: matching every choice, listed after `since` and at the
 * latest `until`, newest first, sold ones always left out.
 */
export async function newlyListedMatches(
  db: Db,
  query: Omit<SearchQuery, 'sort' | 'limit' | 'cursor'>,
  window: { since: Date; until: Date; limit: number },
): Promise<ReturnType<typeof rowToProduct>[]> {
  const filters = { ...filtersOf({ ...query, sort: 'newest', limit: window.limit }), hideSold: true };
  const rows = await db
    .selectFrom('products')
    .select(PRODUCT_COLUMNS)
    .where((eb) => where(eb, filters))
    .where('created_at', '>', window.since)
    .where('created_at', '<=', window.until)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(window.limit)
    .execute();
  return rows.map(rowToProduct);
}

/** Every builder with boats listed, most boats first: read from the facet cells (a few thousand rows). */
export async function listBuilders(db: Db): Promise<{ builder: string; boats: number }[]> {
  const rows = await db
    .selectFrom('search_facet_cells')
    .select(['builder', sql<number>`sum(boats)`.as('boats')])
    .where('builder', '<>', '')
    .groupBy('builder')
    .having(sql<number>`sum(boats)`, '>', 0)
    .orderBy('boats', 'desc')
    .orderBy('builder')
    .execute();
  return rows.map((row) => ({ builder: row.builder, boats: Number(row.boats) }));
}
