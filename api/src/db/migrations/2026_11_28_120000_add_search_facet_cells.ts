import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

// The search's list-facet counts, kept as they change (docs/adr/0048): one row per combination
// of the list facets (category, builder, condition, country, VAT treatment, for sale or sold)
// with its number of boats, of those the boats with at least n cabins (n = 0 to 6), and the
// lowest and highest price, length and year among them (the range facets' bounds). Unknown
// values are '' so every key column is plain equality (hash joins when a bulk change is folded
// in). Statement triggers fold each change into the cells in the same transaction, so the counts
// never disagree with the rows a search lists. A removal cannot lower a maximum by arithmetic:
// the bounds of each cell a removal touched are read again from its boats.

const DIMENSIONS = ['category', 'builder', 'condition', 'location_country', 'vat_treatment', 'available'] as const;
const CABIN_STEPS = [0, 1, 2, 3, 4, 5, 6];

const cabinColumns = CABIN_STEPS.map((n) => `cabins_${n}`);
const keys = DIMENSIONS.join(', ');
const counts = ['boats', ...cabinColumns];
const RANGES = [
  ['price', 'price_cents', 'bigint'],
  ['length', 'length_overall_cm', 'integer'],
  ['year', 'year_built', 'smallint'],
] as const;
const bounds = RANGES.flatMap(([name]) => [`${name}_min`, `${name}_max`]);
const boundsOf = RANGES.map(([name, column]) => `min(${column}) as ${name}_min, max(${column}) as ${name}_max`).join(', ');
/** A product row's cell key, as the cells spell it. */
const keyOf = (p: string) =>
  `${p}.category, coalesce(${p}.builder, ''), coalesce(${p}.condition, ''), coalesce(${p}.location_country, ''), ${p}.vat_treatment, (${p}.stock_on_hand is null or ${p}.stock_on_hand > 0)`;

/**
 * The rows of `side` whose cell or counted values an update changed: a checkout's reservation
 * (stock_reserved) or a new description leaves the cells, and their row locks, alone.
 */
const changed = (side: string, other: string) => `(
  select s.* from ${side} as s join ${other} as o on o.id = s.id
  where (${keyOf('s')}, s.cabins, s.price_cents, s.length_overall_cm, s.year_built)
        is distinct from (${keyOf('o')}, o.cabins, o.price_cents, o.length_overall_cm, o.year_built)
)`;

/** The cells of a set of product rows (`source`): the key columns and every count. */
const cellsOf = (source: string) => `
  select category, coalesce(builder, '') as builder, coalesce(condition, '') as condition,
         coalesce(location_country, '') as location_country, vat_treatment,
         (stock_on_hand is null or stock_on_hand > 0) as available,
         count(*)::int as boats,
         ${CABIN_STEPS.map((n) => `(count(*) filter (where cabins >= ${n}))::int as cabins_${n}`).join(', ')},
         ${boundsOf}
  from ${source} as counted_rows
  group by 1, 2, 3, 4, 5, 6`;

const add = (source: string) => `
  insert into search_facet_cells as cell (${keys}, ${counts.join(', ')}, ${bounds.join(', ')})
  select * from (${cellsOf(source)}) as added order by ${keys}
  on conflict (${keys}) do update set ${counts.map((c) => `${c} = cell.${c} + excluded.${c}`).join(', ')},
    ${RANGES.map(([name]) => `${name}_min = least(cell.${name}_min, excluded.${name}_min), ${name}_max = greatest(cell.${name}_max, excluded.${name}_max)`).join(', ')};`;

const remove = (source: string) => `
  update search_facet_cells as cell set ${counts.map((c) => `${c} = cell.${c} - removed.${c}`).join(', ')}
  from (${cellsOf(source)}) as removed
  where ${DIMENSIONS.map((d) => `cell.${d} = removed.${d}`).join(' and ')};
  delete from search_facet_cells where boats = 0;
  update search_facet_cells as cell set (${bounds.join(', ')}) = (
    select ${boundsOf} from products as p
    where (p.builder = cell.builder or (cell.builder = '' and p.builder is null)) and (${keyOf('p')}) = (${keys
      .split(', ')
      .map((k) => `cell.${k}`)
      .join(', ')})
  )
  from (select distinct ${keyOf('r')} from ${source} as r) as touched (${keys})
  where ${DIMENSIONS.map((d) => `cell.${d} = touched.${d}`).join(' and ')};`;

export async function up(db: Kysely<any>): Promise<void> {
  // Covering indexes for the searches the cells cannot answer (text or a range chosen): every
  // column a facet count reads, so a builder's boats or a length band are counted from the index
  // alone. The builder one also serves the triggers' re-reading of a cell's bounds.
  const facetColumns = 'category, condition, location_country, vat_treatment, stock_on_hand, price_cents, cabins';
  await sql
    .raw(`create index products_search_builder_idx on products (builder, length_overall_cm, year_built) include (${facetColumns})`)
    .execute(db);
  await sql
    .raw(`create index products_search_length_idx on products (length_overall_cm, year_built) include (builder, ${facetColumns})`)
    .execute(db);
  // A builder's newest boats first: the first page of a builder search walks its own boats, not
  // the whole catalogue's newest (which the planner otherwise picks, filtering most rows away).
  await sql`create index products_search_builder_created_idx on products (builder, created_at desc, id desc)`.execute(db);
  // A fixed one-in-sixteen sample of the boats, from which a facet counting very many boats is estimated.
  await sql
    .raw(
      `create index products_search_sample_idx on products (length_overall_cm, year_built) include (builder, ${facetColumns}) where (hashtext(id::text) & 15) = 0`,
    )
    .execute(db);

  await sql
    .raw(
      `create table search_facet_cells (
        category text not null,
        builder text not null,
        condition text not null,
        location_country text not null,
        vat_treatment text not null,
        available boolean not null,
        ${counts.map((c) => `${c} integer not null check (${c} >= 0)`).join(',\n        ')},
        ${RANGES.map(([name, , type]) => `${name}_min ${type}, ${name}_max ${type}`).join(',\n        ')},
        primary key (${keys})
      )`,
    )
    .execute(db);
  await sql.raw(`insert into search_facet_cells (${keys}, ${counts.join(', ')}, ${bounds.join(', ')}) ${cellsOf('products')}`).execute(db);

  await sql
    .raw(
      `create function search_facet_cells_insert() returns trigger language plpgsql as $$
       begin ${add('new_rows')} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function search_facet_cells_delete() returns trigger language plpgsql as $$
       begin ${remove('old_rows')} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function search_facet_cells_update() returns trigger language plpgsql as $$
       begin ${remove(changed('old_rows', 'new_rows'))} ${add(changed('new_rows', 'old_rows'))} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function search_facet_cells_truncate() returns trigger language plpgsql as $$ begin delete from search_facet_cells; return null; end $$`,
    )
    .execute(db);

  await sql`
    create trigger search_facet_cells_insert after insert on products
    referencing new table as new_rows for each statement execute function search_facet_cells_insert()
  `.execute(db);
  await sql`
    create trigger search_facet_cells_delete after delete on products
    referencing old table as old_rows for each statement execute function search_facet_cells_delete()
  `.execute(db);
  await sql`
    create trigger search_facet_cells_update after update on products
    referencing old table as old_rows new table as new_rows for each statement execute function search_facet_cells_update()
  `.execute(db);
  await sql`
    create trigger search_facet_cells_truncate after truncate on products
    for each statement execute function search_facet_cells_truncate()
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'delete', 'update', 'truncate']) {
    await sql.raw(`drop trigger search_facet_cells_${event} on products`).execute(db);
    await sql.raw(`drop function search_facet_cells_${event}()`).execute(db);
  }
  await sql`drop table search_facet_cells`.execute(db);
  await sql`drop index products_search_sample_idx`.execute(db);
  await sql`drop index products_search_builder_created_idx`.execute(db);
  await sql`drop index products_search_length_idx`.execute(db);
  await sql`drop index products_search_builder_idx`.execute(db);
}
