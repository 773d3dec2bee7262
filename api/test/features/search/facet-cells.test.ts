import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchQuery } from '@boatshop/contract';
import { seedDemoData } from '../../../src/db/seed/seed.js';
import { cellsCanCount, countFacets } from '../../../src/features/search/facet-counts.js';
import { filtersOf } from '../../../src/features/search/search-filters.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';

// The facet-cell table (docs/adr/0048) must give exactly what counting the products gives, for
// every list-only choice, after inserts, updates (a sale, a new builder), deletes and a truncate.
const LIST_QUERIES: Partial<SearchQuery>[] = [
  {},
  { category: 'yachts' },
  { category: 'sailing-boats', condition: 'used' },
  { builder: 'Halvard,Cap Ferrand' },
  { country: 'HR,GR', hideSold: true },
  { vatPaid: true },
  { vatPaid: true, category: 'yachts', cabinsMin: 2 },
  { cabinsMin: 0 },
  { cabinsMin: 6, hideSold: true },
  { condition: 'new', vatPaid: true },
];

function query(choices: Partial<SearchQuery>): SearchQuery {
  return { sort: 'newest', limit: 6, ...choices };
}

describe('search facet cells', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
    await resetDatabase(app);
    await seedDemoData(app.db);
  }, 60_000);
  afterAll(() => app?.close());

  async function expectCellsMatchProducts(label: string) {
    for (const raw of LIST_QUERIES) {
      const filters = filtersOf(query(raw));
      expect(cellsCanCount(filters)).toBe(true);
      const fromCells = await countFacets(app.db, filters, { cells: true });
      const fromProducts = await countFacets(app.db, filters, { cells: false });
      expect(fromCells, `${label}: ${JSON.stringify(raw)}`).toEqual(fromProducts);
    }
  }

  it('counts what the products count on the demo catalogue', async () => {
    const all = await countFacets(app.db, filtersOf(query({})), { cells: true });
    expect(all.total).toBe(26);
    expect(all.facets.vatPaid).toBeGreaterThan(0);
    expect(all.facets.vatPaid).toBeLessThan(26);
    await expectCellsMatchProducts('demo');
  });

  it('follows inserts, a sale, a changed builder and VAT treatment, and deletes', async () => {
    const boat = await app.db.selectFrom('products').select(['id']).where('name', '=', 'Nordvik 27 Classic').executeTakeFirstOrThrow();
    await app.db.updateTable('products').set({ stock_on_hand: 0 }).where('id', '=', boat.id).execute();
    await expectCellsMatchProducts('after a sale');

    // A reservation (stock held by an open order) is no sale: every cell stays as it was.
    const cellsBefore = await app.db
      .selectFrom('search_facet_cells')
      .selectAll()
      .orderBy(['category', 'builder', 'location_country', 'vat_treatment', 'condition', 'available'])
      .execute();
    await app.db.updateTable('products').set({ stock_on_hand: 2 }).where('name', '=', 'Aldren 22 Daysailer').execute();
    await app.db.updateTable('products').set({ stock_reserved: 1 }).where('name', '=', 'Aldren 22 Daysailer').execute();
    const cellsAfterReservation = await app.db
      .selectFrom('search_facet_cells')
      .selectAll()
      .orderBy(['category', 'builder', 'location_country', 'vat_treatment', 'condition', 'available'])
      .execute();
    expect(cellsAfterReservation).toEqual(cellsBefore);
    await expectCellsMatchProducts('after a reservation');

    await app.db
      .updateTable('products')
      .set({ builder: 'Brand New Yard', vat_treatment: 'not_vat_paid', cabins: null })
      .where('category', '=', 'yachts')
      .execute();
    await expectCellsMatchProducts('after a bulk update');

    await app.db
      .insertInto('products')
      .values(
        [1, 2, 3].map((n) => ({
          name: `Cell boat ${n}`,
          thumbnail_url: '/api/images/aldren-22-daysailer.svg',
          price_cents: 1_000_000 * n,
          category: 'sailing-boats' as const,
          builder: n === 3 ? null : 'Halvard',
          condition: 'used' as const,
          cabins: n + 4,
          location_country: 'HR',
          vat_treatment: 'margin_scheme' as const,
        })),
      )
      .execute();
    await expectCellsMatchProducts('after inserts');

    await app.db.deleteFrom('products').where('builder', '=', 'Halvard').execute();
    await expectCellsMatchProducts('after deletes');

    // Removing the longest boat lowers the length bound: the touched cell's bounds are read again.
    const before = await countFacets(app.db, filtersOf(query({})), { cells: true });
    await app.db
      .deleteFrom('products')
      .where('length_overall_cm', '=', before.facets.length.max! * 100)
      .execute();
    const after = await countFacets(app.db, filtersOf(query({})), { cells: true });
    expect(after.facets.length.max).toBeLessThan(before.facets.length.max!);
    await expectCellsMatchProducts('after the longest boat left');
    const { count } = await app.db
      .selectFrom('search_facet_cells')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('boats', '=', 0)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
  });

  it('empties with a truncate', async () => {
    await sql`truncate table products cascade`.execute(app.db);
    const cells = await app.db.selectFrom('search_facet_cells').selectAll().execute();
    expect(cells).toEqual([]);
    expect((await countFacets(app.db, filtersOf(query({})), { cells: true })).total).toBe(0);
  });

  it('leaves text and ranges to the products', () => {
    expect(cellsCanCount(filtersOf(query({ q: 'teak' })))).toBe(false);
    expect(cellsCanCount(filtersOf(query({ lengthMin: 15 })))).toBe(false);
    expect(cellsCanCount(filtersOf(query({ cabinsMin: 7 })))).toBe(false);
  });
});
