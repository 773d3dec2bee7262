import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { SEARCH_FACET_LIMIT, VAT_PAID_TREATMENTS, type SearchFacets } from '@boatshop/contract';
import type { Database, Db } from '../../db/database.js';
import { groupedCounts, type ListColumn } from './grouped-counts.js';
import { where, type Facet, type SearchFilters } from './search-filters.js';

// Every facet's counts under the other choices (disjunctive), from one of two sources
// (docs/adr/0048): the facet-cell table when every choice is a list facet (category, builder,
// condition, country, VAT paid, cabins up to 6, hide sold), which holds a few thousand rows
// whatever the catalogue's size; otherwise the products themselves, narrowed by their indexes.
// The cells are exact; from products, a facet counting more than APPROXIMATE_ABOVE boats is
// estimated for the values not chosen (grouped-counts.ts). Range bounds: see listChoices.

const CABIN_STEPS = [1, 2, 3, 4, 5, 6] as const;
/** The cells count boats with at least 0 to this many cabins. */
const CELL_CABINS_MAX = 6;

type Counted = { total: number; facets: SearchFacets };
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const counts = (rows: { value: string; count: unknown }[]) => rows.map((row) => ({ value: row.value, count: Number(row.count) }));

/** Whether the facet-cell table can answer these choices: no text, no price, length or year range. */
export function cellsCanCount(f: SearchFilters): boolean {
  return (
    !f.q &&
    [f.priceMin, f.priceMax, f.lengthMinCm, f.lengthMaxCm, f.yearMin, f.yearMax].every((bound) => bound === undefined) &&
    (f.cabinsMin === undefined || f.cabinsMin <= CELL_CABINS_MAX)
  );
}

export async function countFacets(db: Db, f: SearchFilters, options: { cells: boolean }): Promise<Counted> {
  const [counted, ranges] = await Promise.all([
    options.cells && cellsCanCount(f) ? countsFromCells(db, f) : countsFromProducts(db, f, options.cells),
    options.cells ? rangesFromCells(db, f) : rangesFromProducts(db, f),
  ]);
  const metres = (cm: number | null) => (cm === null ? null : cm / 100);
  return {
    total: counted.total,
    facets: {
      ...counted.facets,
      price: ranges.price,
      length: { min: metres(ranges.length.min), max: metres(ranges.length.max) },
      year: ranges.year,
    },
  };
}

type ListCounts = { total: number; facets: Omit<SearchFacets, 'price' | 'length' | 'year'> };
type Bounds = { min: number | null; max: number | null };
type Ranges = { price: Bounds; length: Bounds; year: Bounds };

/**
 * The range facets' bounds are the lowest and highest among the boats matching the list choices
 * (category, builder, condition, country, VAT paid, hide sold): text, cabins and the other ranges
 * do not narrow them, so a slider keeps its scale while another is moved, and the cells answer
 * them whatever is chosen. From products, a min/max an index answers.
 */
const listChoices = (f: SearchFilters): SearchFilters => ({
  builders: f.builders,
  countries: f.countries,
  vatPaid: f.vatPaid,
  hideSold: f.hideSold,
  category: f.category,
  condition: f.condition,
});

async function rangesFromProducts(db: Db, f: SearchFilters): Promise<Ranges> {
  const list = listChoices(f);
  const range = async (column: 'price_cents' | 'length_overall_cm' | 'year_built') => {
    const row = await db
      .selectFrom('products')
      .select((eb) => [eb.fn.min(column).as('min'), eb.fn.max(column).as('max')])
      .where((eb) => where(eb, list))
      .executeTakeFirstOrThrow();
    return { min: num(row.min), max: num(row.max) };
  };
  const [price, length, year] = await Promise.all([range('price_cents'), range('length_overall_cm'), range('year_built')]);
  return { price, length, year };
}

async function countsFromProducts(db: Db, f: SearchFilters, approximate: boolean): Promise<ListCounts> {
  const grouped = (column: ListColumn, facet: Facet, chosen: (string | undefined)[], limit?: number) =>
    groupedCounts(
      db,
      f,
      column,
      facet,
      chosen.filter((value): value is string => value !== undefined),
      { approximate, limit },
    );
  const paid = sql<SqlBool>`vat_treatment in (${sql.join(VAT_PAID_TREATMENTS)})`;
  const cabinsAtLeast = (n: number) => sql<SqlBool>`cabins >= ${n}`;
  // One pass for the total, the "at least n cabins" steps and "VAT paid": each ignores its own choice.
  const chosenCabins = f.cabinsMin === undefined ? sql<SqlBool>`true` : cabinsAtLeast(f.cabinsMin);
  const chosenVat = f.vatPaid ? paid : sql<SqlBool>`true`;
  const totals = db
    .selectFrom('products')
    .select([
      sql<number>`count(*) filter (where ${chosenCabins} and ${chosenVat})`.as('total'),
      sql<number>`count(*) filter (where ${chosenCabins} and ${paid})`.as('vat_paid'),
      ...CABIN_STEPS.map((n) => sql<number>`count(*) filter (where ${cabinsAtLeast(n)} and ${chosenVat})`.as(`cabins_${n}`)),
    ])
    .where((eb) => where(eb, f, 'cabins', 'vatPaid'))
    .executeTakeFirstOrThrow();
  const [category, builder, condition, country, counted] = await Promise.all([
    grouped('category', 'category', [f.category]),
    grouped('builder', 'builder', f.builders, SEARCH_FACET_LIMIT),
    grouped('condition', 'condition', [f.condition]),
    grouped('location_country', 'country', f.countries),
    totals,
  ]);
  const record = counted as Record<string, unknown>;
  return {
    total: Number(record.total),
    facets: {
      category,
      builder,
      condition,
      country,
      cabins: CABIN_STEPS.map((n) => ({ value: String(n), count: Number(record[`cabins_${n}`]) })),
      vatPaid: Number(record.vat_paid),
    },
  };
}

type CellEb = ExpressionBuilder<Database, 'search_facet_cells'>;
type CellCount = 'boats' | `cabins_${0 | 1 | 2 | 3 | 4 | 5 | 6}`;

/** The list choices on the cells, leaving out `except`; cabins are a choice of count column, not a condition. */
function whereCell(eb: CellEb, f: SearchFilters, except?: Facet): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.category && except !== 'category') parts.push(eb('category', '=', f.category));
  if (f.builders.length > 0 && except !== 'builder') parts.push(eb('builder', 'in', f.builders));
  if (f.condition && except !== 'condition') parts.push(eb('condition', '=', f.condition));
  if (f.countries.length > 0 && except !== 'country') parts.push(eb('location_country', 'in', f.countries));
  if (f.vatPaid && except !== 'vatPaid') parts.push(eb('vat_treatment', 'in', VAT_PAID_TREATMENTS));
  if (f.hideSold) parts.push(eb('available', '=', true));
  return eb.and(parts);
}

/** Every range's bounds under the list choices (see listChoices). */
async function rangesFromCells(db: Db, f: SearchFilters): Promise<Ranges> {
  const row = await db
    .selectFrom('search_facet_cells')
    .select((eb) => [
      eb.fn.min('price_min').as('price_min'),
      eb.fn.max('price_max').as('price_max'),
      eb.fn.min('length_min').as('length_min'),
      eb.fn.max('length_max').as('length_max'),
      eb.fn.min('year_min').as('year_min'),
      eb.fn.max('year_max').as('year_max'),
    ])
    .where((eb) => whereCell(eb, f))
    .executeTakeFirstOrThrow();
  return {
    price: { min: num(row.price_min), max: num(row.price_max) },
    length: { min: num(row.length_min), max: num(row.length_max) },
    year: { min: num(row.year_min), max: num(row.year_max) },
  };
}

async function countsFromCells(db: Db, f: SearchFilters): Promise<ListCounts> {
  const counted = sql.ref<number>(f.cabinsMin === undefined ? 'boats' : (`cabins_${f.cabinsMin}` as CellCount));
  const grouped = (column: 'category' | 'builder' | 'condition' | 'location_country', facet: Facet, limit?: number) => {
    let query = db
      .selectFrom('search_facet_cells')
      .select([sql<string>`${sql.ref(column)}`.as('value'), sql<number>`sum(${counted})`.as('count')])
      .where((eb) => whereCell(eb, f, facet))
      .where(column, '<>', '')
      .groupBy(column)
      .having(sql<number>`sum(${counted})`, '>', 0)
      .orderBy('count', 'desc')
      .orderBy(column);
    if (limit) query = query.limit(limit);
    return query.execute();
  };
  const paid = sql<SqlBool>`vat_treatment in (${sql.join(VAT_PAID_TREATMENTS)})`;
  const chosenVat = f.vatPaid ? paid : sql<SqlBool>`true`;
  const sumWhere = (column: ReturnType<typeof sql.ref<number>>, condition: ReturnType<typeof sql<SqlBool>>) =>
    sql<number>`coalesce(sum(${column}) filter (where ${condition}), 0)`;
  const totals = db
    .selectFrom('search_facet_cells')
    .select([
      sumWhere(counted, chosenVat).as('total'),
      sumWhere(counted, paid).as('vat_paid'),
      ...CABIN_STEPS.map((n) => sumWhere(sql.ref<number>(`cabins_${n}`), chosenVat).as(`cabins_${n}`)),
    ])
    .where((eb) => whereCell(eb, f, 'vatPaid'))
    .executeTakeFirstOrThrow();
  const [category, builder, condition, country, sums] = await Promise.all([
    grouped('category', 'category'),
    grouped('builder', 'builder', SEARCH_FACET_LIMIT),
    grouped('condition', 'condition'),
    grouped('location_country', 'country'),
    totals,
  ]);
  const record = sums as Record<string, unknown>;
  return {
    total: Number(record.total),
    facets: {
      category: counts(category),
      builder: counts(builder),
      condition: counts(condition),
      country: counts(country),
      cabins: CABIN_STEPS.map((n) => ({ value: String(n), count: Number(record[`cabins_${n}`]) })),
      vatPaid: Number(record.vat_paid),
    },
  };
}
