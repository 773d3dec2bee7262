import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import {
  isUuid,
  SEARCH_FACET_LIMIT,
  SEARCH_MAX_CHOICES,
  type SearchFacets,
  type SearchQuery,
  type SearchResult,
  type SearchSort,
} from '@boatshop/contract';
import type { Database, Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { PRODUCT_COLUMNS, rowToProduct } from '../products/products.repository.js';

type Eb = ExpressionBuilder<Database, 'products'>;
type Facet = 'category' | 'builder' | 'condition' | 'country' | 'cabins' | 'price' | 'length' | 'year';

/** The choices as the database compares them: lengths in centimetres, lists split and bounded. */
export interface SearchFilters {
  category?: string | undefined;
  q?: string | undefined;
  builders: string[];
  condition?: string | undefined;
  countries: string[];
  priceMin?: number | undefined;
  priceMax?: number | undefined;
  lengthMinCm?: number | undefined;
  lengthMaxCm?: number | undefined;
  yearMin?: number | undefined;
  yearMax?: number | undefined;
  cabinsMin?: number | undefined;
  hideSold: boolean;
}

function splitList(raw: string | undefined, label: string, check: (value: string) => boolean): string[] {
  const values = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean),
    ),
  ];
  if (values.length > SEARCH_MAX_CHOICES) throw badRequest(`${label}: at most ${SEARCH_MAX_CHOICES} at a time`);
  const bad = values.filter((value) => !check(value));
  if (bad.length > 0) throw badRequest(`${label}: not a valid value`, bad);
  return values;
}

export function filtersOf(query: SearchQuery): SearchFilters {
  for (const [name, min, max] of [
    ['price', query.priceMin, query.priceMax],
    ['length', query.lengthMin, query.lengthMax],
    ['year', query.yearMin, query.yearMax],
  ] as const) {
    if (min !== undefined && max !== undefined && min > max) throw badRequest(`${name}: the minimum must not exceed the maximum`);
  }
  return {
    category: query.category,
    q: query.q?.trim() || undefined,
    builders: splitList(query.builder, 'builder', (value) => value.length <= 120 && !value.includes('\u0000')),
    condition: query.condition,
    countries: splitList(query.country, 'country', (value) => /^[A-Z]{2}$/.test(value)),
    priceMin: query.priceMin,
    priceMax: query.priceMax,
    lengthMinCm: query.lengthMin === undefined ? undefined : Math.round(query.lengthMin * 100),
    lengthMaxCm: query.lengthMax === undefined ? undefined : Math.round(query.lengthMax * 100),
    yearMin: query.yearMin,
    yearMax: query.yearMax,
    cabinsMin: query.cabinsMin,
    hideSold: query.hideSold === true,
  };
}

/** Every choice as one condition, leaving out the facet `except` (its own counts ignore its choice). */
function where(eb: Eb, f: SearchFilters, except?: Facet): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.category && except !== 'category') parts.push(eb('category', '=', f.category as never));
  if (f.q) parts.push(sql<SqlBool>`search @@ websearch_to_tsquery('english', ${f.q})`);
  if (f.builders.length > 0 && except !== 'builder') parts.push(eb('builder', 'in', f.builders));
  if (f.condition && except !== 'condition') parts.push(eb('condition', '=', f.condition as never));
  if (f.countries.length > 0 && except !== 'country') parts.push(eb('location_country', 'in', f.countries));
  if (except !== 'price') {
    if (f.priceMin !== undefined) parts.push(eb('price_cents', '>=', f.priceMin));
    if (f.priceMax !== undefined) parts.push(eb('price_cents', '<=', f.priceMax));
  }
  if (except !== 'length') {
    if (f.lengthMinCm !== undefined) parts.push(eb('length_overall_cm', '>=', f.lengthMinCm));
    if (f.lengthMaxCm !== undefined) parts.push(eb('length_overall_cm', '<=', f.lengthMaxCm));
  }
  if (except !== 'year') {
    if (f.yearMin !== undefined) parts.push(eb('year_built', '>=', f.yearMin));
    if (f.yearMax !== undefined) parts.push(eb('year_built', '<=', f.yearMax));
  }
  if (f.cabinsMin !== undefined && except !== 'cabins') parts.push(eb('cabins', '>=', f.cabinsMin));
  // Reserved boats stay: an expired order gives them back.
  if (f.hideSold) parts.push(eb.or([eb('stock_on_hand', 'is', null), eb('stock_on_hand', '>', 0)]));
  return eb.and(parts);
}

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

const CABIN_STEPS = [1, 2, 3, 4, 5, 6];

async function facetCounts(db: Db, f: SearchFilters): Promise<{ total: number; facets: SearchFacets }> {
  const from = () => db.selectFrom('products');
  const grouped = (column: 'category' | 'builder' | 'condition' | 'location_country', facet: Facet, limit?: number) => {
    let query = from()
      .select([sql<string>`${sql.ref(column)}`.as('value'), (eb) => eb.fn.countAll<number>().as('count')])
      .where((eb) => where(eb, f, facet))
      .where(column, 'is not', null)
      .groupBy(column)
      .orderBy('count', 'desc')
      .orderBy(column);
    if (limit) query = query.limit(limit);
    return query.execute();
  };
  const ranges = (facet: 'price' | 'length' | 'year', column: 'price_cents' | 'length_overall_cm' | 'year_built') =>
    from()
      .select((eb) => [eb.fn.min(column).as('min'), eb.fn.max(column).as('max')])
      .where((eb) => where(eb, f, facet))
      .executeTakeFirstOrThrow();

  // One statement for the total and the "at least n cabins" counts: a single pass over the rows.
  const totals = from()
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      ...CABIN_STEPS.map((n) => sql<number>`count(*) filter (where cabins >= ${n})`.as(`cabins_${n}`)),
    ])
    .where((eb) => where(eb, f, 'cabins'))
    .select(
      f.cabinsMin === undefined
        ? sql<number>`count(*)`.as('matching')
        : sql<number>`count(*) filter (where cabins >= ${f.cabinsMin})`.as('matching'),
    )
    .executeTakeFirstOrThrow();

  const [category, builder, condition, country, price, length, year, counted] = await Promise.all([
    grouped('category', 'category'),
    grouped('builder', 'builder', SEARCH_FACET_LIMIT),
    grouped('condition', 'condition'),
    grouped('location_country', 'country'),
    ranges('price', 'price_cents'),
    ranges('length', 'length_overall_cm'),
    ranges('year', 'year_built'),
    totals,
  ]);
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const counts = (rows: { value: string; count: number }[]) => rows.map((row) => ({ value: row.value, count: Number(row.count) }));
  const record = counted as Record<string, unknown>;
  return {
    total: Number(record.matching),
    facets: {
      category: counts(category),
      builder: counts(builder),
      condition: counts(condition),
      country: counts(country),
      cabins: CABIN_STEPS.map((n) => ({ value: String(n), count: Number(record[`cabins_${n}`]) })),
      price: { min: num(price.min), max: num(price.max) },
      length: {
        min: num(length.min) === null ? null : num(length.min)! / 100,
        max: num(length.max) === null ? null : num(length.max)! / 100,
      },
      year: { min: num(year.min), max: num(year.max) },
    },
  };
}

/**
 * A page of the boats matching every choice, in the order asked for, keyset-paged on
 * (sort key, created_at, id) so a deep page costs what the first does; with the number of
 * matches and every facet's counts.
 */
export async function searchProducts(db: Db, query: SearchQuery): Promise<SearchResult> {
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

  const [rows, counted] = await Promise.all([pageQuery, facetCounts(db, filters)]);
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
