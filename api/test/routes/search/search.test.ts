import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '@boatshop/contract';
import { seedDemoData } from '../../../src/db/seed/seed.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';

const URL = '/api/products/search';

describe('GET /api/products/search', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
    await resetDatabase(app);
    await seedDemoData(app.db);
  }, 60_000);
  afterAll(() => app?.close());

  async function search(query: string): Promise<SearchResult> {
    const response = await app.inject({ url: `${URL}?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** Every page of a search, following the cursors. */
  async function all(query: string) {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchResult = await search(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      names.push(...page.data.map((product) => product.name));
      cursor = page.cursor;
    } while (cursor);
    return names;
  }

  it('filters yachts of 15 to 25 m built from 2018, and its count matches the list', async () => {
    const result = await search('category=yachts&lengthMin=15&lengthMax=25&yearMin=2018');
    expect(result.data.map((product) => product.name)).toEqual(['Belmare 64 Sport']);
    expect(result.total).toBe(1);
    expect(result.isLastPage).toBe(true);
    // The category facet ignores its own choice: no sailing boat of that length and age exists.
    expect(result.facets.category).toEqual([{ value: 'yachts', count: 1 }]);
    const anyCategory = await search('lengthMin=12&lengthMax=25&yearMin=2018');
    expect(anyCategory.facets.category).toEqual([
      { value: 'sailing-boats', count: 1 },
      { value: 'yachts', count: 1 },
    ]);
  });

  it('answers the broad search with pages of 6 whose union is the whole catalogue, and facet counts that add up', async () => {
    const first = await search('');
    expect(first.data).toHaveLength(6);
    expect(first.total).toBe(26);
    expect(first.facets.condition.reduce((sum, facet) => sum + facet.count, 0)).toBe(26);
    expect(first.facets.category).toEqual([
      { value: 'sailing-boats', count: 14 },
      { value: 'yachts', count: 12 },
    ]);
    expect(first.facets.length).toEqual({ min: 6.7, max: 55 });
    const names = await all('');
    expect(new Set(names).size).toBe(26);
  });

  it('counts each builder under the other choices, and every facet count equals the total of that choice', async () => {
    const broad = await search('category=sailing-boats');
    for (const { value, count } of broad.facets.country) {
      const narrowed = await search(`category=sailing-boats&country=${value}`);
      expect(narrowed.total, value).toBe(count);
    }
    const chosen = await search('category=sailing-boats&builder=Halvard,Cap%20Ferrand');
    expect(chosen.total).toBe(2);
    expect(chosen.facets.builder.length).toBeGreaterThan(2);
  });

  it.each([
    ['price-asc', (a: number, b: number) => a <= b, 'priceCents'],
    ['price-desc', (a: number, b: number) => a >= b, 'priceCents'],
    ['length', (a: number, b: number) => a >= b, 'length'],
  ] as const)('sorts by %s across pages', async (sort, ordered, field) => {
    const values: number[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchResult = await search(`sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`);
      values.push(...page.data.map((product) => (field === 'length' ? (product.specs?.lengthM ?? -1) : product.priceCents)));
      cursor = page.cursor;
    } while (cursor);
    expect(values).toHaveLength(26);
    for (let i = 1; i < values.length; i += 1) expect(ordered(values[i - 1]!, values[i]!), `${values[i - 1]} then ${values[i]}`).toBe(true);
  });

  it('leaves out sold boats when asked, and counts boats with at least n cabins', async () => {
    const used = await app.db.selectFrom('products').select('id').where('name', '=', 'Nordvik 27 Classic').executeTakeFirstOrThrow();
    await app.db.updateTable('products').set({ stock_on_hand: 0 }).where('id', '=', used.id).execute();
    app.catalogCache.clear();
    expect((await search('hideSold=true')).total).toBe(25);
    const cabins = await search('cabinsMin=4');
    expect(cabins.total).toBe(cabins.facets.cabins.find((facet) => facet.value === '4')!.count);
    expect(cabins.total).toBeGreaterThan(0);
  });

  it('filters VAT-paid boats (own stock or margin scheme) with a count that matches the list, under the other choices', async () => {
    const paidIds = new Set(
      (
        await app.db.selectFrom('products').select('id').where('vat_treatment', 'in', ['vat_paid_own_stock', 'margin_scheme']).execute()
      ).map((row) => row.id),
    );
    const broad = await search('');
    expect(broad.facets.vatPaid).toBe(paidIds.size);
    expect(paidIds.size).toBeGreaterThan(0);
    expect(paidIds.size).toBeLessThan(26);
    const paid = await search('vatPaid=true&limit=48');
    expect(paid.total).toBe(paidIds.size);
    expect(paid.data.every((product) => paidIds.has(product.id))).toBe(true);
    // Its own count ignores its choice; the others' counts follow it.
    expect(paid.facets.vatPaid).toBe(paidIds.size);
    expect(paid.facets.category.reduce((sum, facet) => sum + facet.count, 0)).toBe(paidIds.size);
    const yachts = await search('category=yachts&vatPaid=true');
    expect(yachts.total).toBe(yachts.facets.vatPaid);
    expect(yachts.total).toBe(paid.facets.category.find((facet) => facet.value === 'yachts')?.count ?? 0);
  });

  it('lists every builder with its number of boats', async () => {
    const response = await app.inject({ url: `${URL}/builders` });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: { builder: string; boats: number }[] }>();
    expect(data.reduce((sum, row) => sum + row.boats, 0)).toBe(26);
    const broad = await search('');
    for (const facet of broad.facets.builder) expect(data).toContainEqual({ builder: facet.value, boats: facet.count });
  });

  it('answers an empty result with a total of 0', async () => {
    const result = await search('category=yachts&lengthMax=10');
    expect(result).toMatchObject({ data: [], total: 0, cursor: null, isLastPage: true });
  });

  it.each([
    ['lengthMin=20&lengthMax=10', 'length'],
    ['country=France', 'country'],
    ['sort=cheapest', 'sort'],
    ['cursor=bm90LWpzb24', 'cursor'],
    ['yearMin=1500', 'yearMin'],
    ['vatPaid=maybe', 'vatPaid'],
  ])('refuses %s with a 400', async (query, word) => {
    const response = await app.inject({ url: `${URL}?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.body.toLowerCase()).toContain(word.toLowerCase());
  });

  it('refuses a cursor made for another sort', async () => {
    const page = await search('sort=price-asc');
    const response = await app.inject({ url: `${URL}?sort=newest&cursor=${page.cursor}` });
    expect(response.statusCode).toBe(400);
  });
});
