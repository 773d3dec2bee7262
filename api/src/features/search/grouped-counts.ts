import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { where, type Facet, type SearchFilters } from './search-filters.js';

// One list facet's counts from the products (text or a range chosen), docs/adr/0048: exact while
// the boats it counts are few; above APPROXIMATE_ABOVE, the counts of the values not chosen are
// estimated from a fixed one-in-SAMPLE_EVERY sample of the boats (the partial index
// products_search_sample_idx), rounded to two significant figures and marked `approximate`.
// The chosen values are always counted exactly: their counts are the list the shopper sees.

/** The sample: the boats whose id hashes to 0 modulo 16, the partial index's own predicate. */
const SAMPLE_EVERY = 16;
const IN_SAMPLE = sql<SqlBool>`(hashtext(id::text) & 15) = 0`;
/** Below this many boats (estimated) the facet is counted exactly. */
export const APPROXIMATE_ABOVE = 20_000;

export type ListColumn = 'category' | 'builder' | 'condition' | 'location_country';
export interface FacetCount {
  value: string;
  count: number;
  approximate?: true;
}

const twoFigures = (n: number) => {
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.round(n / scale) * scale;
};

function countBy(
  db: Db,
  f: SearchFilters,
  column: ListColumn,
  facet: Facet,
  options: { sample?: boolean; only?: string[]; limit?: number },
) {
  let query = db
    .selectFrom('products')
    .select([sql<string>`${sql.ref(column)}`.as('value'), (eb) => eb.fn.countAll<number>().as('count')])
    .where((eb) => where(eb, f, facet))
    .where(column, 'is not', null);
  if (options.sample) query = query.where(IN_SAMPLE);
  if (options.only) query = query.where(column, 'in', options.only);
  query = query.groupBy(column).orderBy('count', 'desc').orderBy(column);
  if (options.limit) query = query.limit(options.limit);
  return query.execute();
}

/** The counts of `column` under every choice but its own, most frequent first, at most `limit`. */
export async function groupedCounts(
  db: Db,
  f: SearchFilters,
  column: ListColumn,
  facet: Facet,
  chosen: string[],
  options: { approximate: boolean; limit?: number | undefined; approximateAbove?: number },
): Promise<FacetCount[]> {
  const exact = async () =>
    (await countBy(db, f, column, facet, { limit: options.limit })).map((row) => ({ value: row.value, count: Number(row.count) }));
  if (!options.approximate) return exact();
  const sampled = await countBy(db, f, column, facet, { sample: true });
  const estimate = sampled.reduce((sum, row) => sum + Number(row.count), 0) * SAMPLE_EVERY;
  if (estimate < (options.approximateAbove ?? APPROXIMATE_ABOVE)) return exact();
  const exactChosen = chosen.length > 0 ? await countBy(db, f, column, facet, { only: chosen }) : [];
  const counts = new Map<string, FacetCount>(
    sampled.map((row) => [
      row.value,
      { value: row.value, count: twoFigures(Number(row.count) * SAMPLE_EVERY), approximate: true as const },
    ]),
  );
  for (const value of chosen) counts.delete(value);
  for (const row of exactChosen) counts.set(row.value, { value: row.value, count: Number(row.count) });
  const ordered = [...counts.values()].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  return options.limit ? ordered.slice(0, options.limit) : ordered;
}
