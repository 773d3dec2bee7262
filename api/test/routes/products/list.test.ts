import { describe, expect } from 'vitest';
import { EMPTY_BOAT_SPECS, type Product, type ProductPage } from '@boatshop/contract';
import { type TestApp } from '../../helpers/build-test-app.js';
import { insertProduct, insertProducts, productRow } from '../../helpers/products.js';
import { it } from '../../support/fixtures.js';

async function getPage(app: TestApp, query: Record<string, string>) {
  const response = await app.inject({ method: 'GET', url: '/api/products', query });
  return { status: response.statusCode, body: response.json() };
}

/** Follows the cursors to the end and returns every product seen, in order. */
async function readAllPages(app: TestApp, query: Record<string, string>) {
  const seen: Product[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const { status, body } = await getPage(app, { ...query, ...(cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    const page = body as ProductPage;
    seen.push(...page.data);
    pages += 1;
    expect(page.isLastPage).toBe(page.cursor === null);
    cursor = page.cursor;
  } while (cursor);
  return { seen, pages };
}

describe('GET /api/products', () => {
  it('returns 6 products per page by default, newest first', async ({ app }) => {
    const base = Date.UTC(2024, 0, 1);
    await insertProducts(
      app,
      Array.from({ length: 8 }, (_, i) => productRow({ name: `Boat ${i}`, created_at: new Date(base + i * 60_000) })),
    );
    const { status, body } = await getPage(app, {});
    expect(status).toBe(200);
    expect(body.data.map((p: Product) => p.name)).toEqual(['Boat 7', 'Boat 6', 'Boat 5', 'Boat 4', 'Boat 3', 'Boat 2']);
    expect(body.isLastPage).toBe(false);
    expect(typeof body.cursor).toBe('string');
    const next = await getPage(app, { cursor: body.cursor });
    expect(next.body.data.map((p: Product) => p.name)).toEqual(['Boat 1', 'Boat 0']);
    expect(next.body).toMatchObject({ isLastPage: true, cursor: null });
  });

  it('answers an empty catalogue with an empty last page', async ({ app }) => {
    expect((await getPage(app, {})).body).toEqual({ data: [], cursor: null, isLastPage: true });
  });

  it('returns the API shape with integer cents and an ISO date', async ({ app }) => {
    const row = await insertProduct(app, { name: 'Aldren 22', price_cents: 2_190_000, category: 'sailing-boats' });
    const { body } = await getPage(app, {});
    expect(body.data).toEqual([
      {
        id: row.id,
        name: 'Aldren 22',
        thumbnailUrl: expect.stringMatching(/^\/api\/images\//),
        priceCents: 2_190_000,
        descriptionHtml: '<p>A test boat.</p>',
        category: 'sailing-boats',
        createdAt: row.created_at.toISOString(),
        stock: null,
        availability: 'in_stock',
        specs: EMPTY_BOAT_SPECS,
        seaTrials: false,
      },
    ]);
  });

  it('pages through 1,000+ products returning each exactly once, even when many share a creation time', async ({ app }) => {
    const sameInstant = new Date('2024-06-01T12:00:00.123Z');
    const rows = Array.from({ length: 1030 }, (_, i) =>
      // Two thirds share one timestamp, so only the id tiebreak keeps the order total.
      productRow({ created_at: i % 3 === 0 ? new Date(sameInstant.getTime() - i * 1000) : sameInstant }),
    );
    const inserted = await insertProducts(app, rows);

    const { seen, pages } = await readAllPages(app, { limit: '48' });
    expect(pages).toBe(Math.ceil(1030 / 48));
    expect(seen).toHaveLength(1030);
    expect(new Set(seen.map((p) => p.id)).size).toBe(1030);
    expect(new Set(seen.map((p) => p.id))).toEqual(new Set(inserted.map((p) => p.id)));

    // Newest first, ties broken by id descending: the order is total and stable.
    const keys = seen.map((p) => [p.createdAt, p.id] as const);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1));
    expect(keys).toEqual(sorted);
  });

  it('filters by category, across pages too', async ({ app }) => {
    await insertProducts(app, [
      ...Array.from({ length: 7 }, () => productRow({ category: 'yachts' })),
      ...Array.from({ length: 5 }, () => productRow({ category: 'sailing-boats' })),
    ]);
    const yachts = await readAllPages(app, { filterType: 'yachts' });
    expect(yachts.seen).toHaveLength(7);
    expect(yachts.seen.every((p) => p.category === 'yachts')).toBe(true);
    expect(yachts.pages).toBe(2);
    const boats = await readAllPages(app, { filterType: 'sailing-boats' });
    expect(boats.seen).toHaveLength(5);
    expect(boats.seen.every((p) => p.category === 'sailing-boats')).toBe(true);
  });

  describe('search', () => {
    it('ranks a name match above a description match, then newest first', async ({ app }) => {
      const old = new Date('2023-01-01T00:00:00Z');
      const recent = new Date('2024-01-01T00:00:00Z');
      await insertProducts(app, [
        productRow({ name: 'Harbour Tender', description_html: '<p>Carries a <strong>catamaran</strong> dinghy.</p>', created_at: recent }),
        productRow({ name: 'Lisandra 42 Catamaran', description_html: '<p>Four cabins.</p>', created_at: old }),
        productRow({ name: 'Wave Catamaran 38', description_html: '<p>Fast.</p>', created_at: recent }),
        productRow({ name: 'Nordvik 27', description_html: '<p>A long keel.</p>', created_at: recent }),
      ]);
      const { status, body } = await getPage(app, { q: 'catamaran' });
      expect(status).toBe(200);
      expect(body.data.map((p: Product) => p.name)).toEqual(['Wave Catamaran 38', 'Lisandra 42 Catamaran', 'Harbour Tender']);
    });

    it('matches words in the description text but not inside HTML tags', async ({ app }) => {
      await insertProducts(app, [
        productRow({ name: 'Boat A', description_html: '<h2>Teak decks</h2><ul><li>Bow thruster</li></ul>' }),
        productRow({ name: 'Boat B', description_html: '<p class="strong">Plain</p>' }),
      ]);
      expect((await getPage(app, { q: 'thrusters' })).body.data.map((p: Product) => p.name)).toEqual(['Boat A']);
      expect((await getPage(app, { q: 'class' })).body.data).toEqual([]);
    });

    it('accepts web-search syntax and combines with the category filter', async ({ app }) => {
      await insertProducts(app, [
        productRow({ name: 'Blue Water Cruiser', category: 'sailing-boats' }),
        productRow({ name: 'Blue Flybridge', category: 'yachts' }),
        productRow({ name: 'Blue Racer', category: 'sailing-boats' }),
      ]);
      const names = (await getPage(app, { q: 'blue -racer', filterType: 'sailing-boats' })).body.data.map((p: Product) => p.name);
      expect(names).toEqual(['Blue Water Cruiser']);
      expect((await getPage(app, { q: '"unbalanced quote' })).status).toBe(200);
    });

    it('pages through ranked results returning each match exactly once', async ({ app }) => {
      const sameInstant = new Date('2024-03-01T00:00:00Z');
      await insertProducts(app, [
        ...Array.from({ length: 40 }, (_, i) =>
          productRow({
            name: i % 4 === 0 ? `Yacht Yacht ${i}` : `Motor ${i}`,
            description_html: '<p>A fine yacht.</p>',
            created_at: sameInstant,
          }),
        ),
        ...Array.from({ length: 10 }, () => productRow({ name: 'Dinghy', description_html: '<p>Small.</p>' })),
      ]);
      const { seen } = await readAllPages(app, { q: 'yacht', limit: '7' });
      expect(seen).toHaveLength(40);
      expect(new Set(seen.map((p) => p.id)).size).toBe(40);
      // The ten with the word in the name as well come first.
      expect(seen.slice(0, 10).every((p) => p.name.startsWith('Yacht Yacht'))).toBe(true);
    });

    it('treats a blank query as no search', async ({ app }) => {
      await insertProducts(app, [productRow(), productRow()]);
      expect((await getPage(app, { q: '   ' })).body.data).toHaveLength(2);
    });
  });

  describe('rejects bad input with 400 VALIDATION and a clear message', () => {
    it('an unknown category', async ({ app }) => {
      const { status, body } = await getPage(app, { filterType: 'submarines' });
      expect(status).toBe(400);
      expect(body.error.code).toBe('VALIDATION');
      expect(body.error.message).toBe('Invalid request: querystring.filterType must be one of: sailing-boats, yachts');
    });

    it.for(['0', '49', 'abc', '2.5'])('limit=%s', async (limit, { app }) => {
      const { status, body } = await getPage(app, { limit });
      expect(status).toBe(400);
      expect(body.error.code).toBe('VALIDATION');
      expect(body.error.message).toMatch(/querystring\.limit/);
    });

    it.for<[string, string]>([
      ['not base64 json', 'garbage!'],
      ['a tampered id', Buffer.from(JSON.stringify({ c: '2024-01-01T00:00:00.000Z', i: "1' or 1=1" })).toString('base64url')],
      ['a bad date', Buffer.from(JSON.stringify({ c: 'yesterday', i: '00000000-0000-0000-0000-000000000000' })).toString('base64url')],
    ])('a cursor that is %s', async ([_label, cursor], { app }) => {
      const { status, body } = await getPage(app, { cursor });
      expect(status).toBe(400);
      expect(body.error).toEqual({ code: 'VALIDATION', message: 'Invalid cursor: start again from the first page' });
    });

    it('a listing cursor replayed on a search, and the reverse', async ({ app }) => {
      await insertProducts(
        app,
        Array.from({ length: 8 }, () => productRow({ name: 'Sloop' })),
      );
      const listing = (await getPage(app, {})).body.cursor as string;
      const search = (await getPage(app, { q: 'sloop' })).body.cursor as string;
      expect((await getPage(app, { q: 'sloop', cursor: listing })).status).toBe(400);
      expect((await getPage(app, { cursor: search })).status).toBe(400);
      expect((await getPage(app, { q: 'sloop', cursor: search })).status).toBe(200);
    });

    const cursorOf = (payload: object) => Buffer.from(JSON.stringify(payload)).toString('base64url');
    const ID = '00000000-0000-4000-8000-000000000000';
    // Dates JavaScript parses but PostgreSQL's timestamptz cannot hold, and ranks a real cannot.
    it.for<[string, Record<string, string>, object]>([
      ['a date before 4713 BC', {}, { c: '-100000-01-01T00:00:00.000Z', i: ID }],
      ['a date at the edge of what JavaScript holds', {}, { c: '+275760-09-13T00:00:00.000Z', i: ID }],
      ['a date in year 0', {}, { c: '0000-01-01T00:00:00.000Z', i: ID }],
      ['a rank too large for a real', { q: 'sloop' }, { c: '2024-01-01T00:00:00.000Z', i: ID, r: 1e300 }],
      ['a rank too small for a real', { q: 'sloop' }, { c: '2024-01-01T00:00:00.000Z', i: ID, r: 1e-300 }],
      ['a negative rank', { q: 'sloop' }, { c: '2024-01-01T00:00:00.000Z', i: ID, r: -1 }],
      ['a rank that is a string', { q: 'sloop' }, { c: '2024-01-01T00:00:00.000Z', i: ID, r: '0.5' }],
    ])('a cursor with %s', async ([_label, query, payload], { app }) => {
      await insertProducts(
        app,
        Array.from({ length: 3 }, () => productRow({ name: 'Sloop' })),
      );
      const { status, body } = await getPage(app, { ...query, cursor: cursorOf(payload) });
      expect(status).toBe(400);
      expect(body.error).toEqual({ code: 'VALIDATION', message: 'Invalid cursor: start again from the first page' });
    });
  });
});
