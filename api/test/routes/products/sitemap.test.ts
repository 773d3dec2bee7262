import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';

interface EntryPage {
  data: { id: string; lastModified: string }[];
  cursor: string | null;
  isLastPage: boolean;
}

const PRODUCTS = 50_003;

describe('GET /api/products/sitemap and /sitemap/pages', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
    await resetDatabase(app);
    // One statement, as a bulk import would: more products than one sitemap file may list.
    await sql`
      insert into products (name, thumbnail_url, price_cents, description_html, category, created_at)
      select 'Generated boat ' || n, '/api/images/generated.svg', 1000000 + n, '<p>Generated.</p>',
             case when n % 2 = 0 then 'yachts' else 'sailing-boats' end,
             timestamptz '2024-01-01T00:00:00Z' + (n / 3) * interval '1 second'
      from generate_series(1, ${PRODUCTS}) as n
    `.execute(app.db);
  }, 120_000);
  afterAll(() => app?.close());

  it('splits more than 50,000 products into files of at most 50,000 that together list each product once', async () => {
    const pages = await app.inject({ url: '/api/products/sitemap/pages' });
    expect(pages.statusCode, pages.body).toBe(200);
    const { total, starts } = pages.json() as { total: number; starts: (string | null)[] };
    expect(total).toBe(PRODUCTS);
    expect(starts).toHaveLength(2);
    expect(starts[0]).toBeNull();

    const first = (await app.inject({ url: '/api/products/sitemap' })).json() as EntryPage;
    const second = (await app.inject({ url: '/api/products/sitemap', query: { after: starts[1]! } })).json() as EntryPage;

    expect(first.data).toHaveLength(50_000);
    expect(first.isLastPage).toBe(false);
    // The cursor that ends one page is where the pages route says the next file starts.
    expect(first.cursor).toBe(starts[1]);
    expect(second.data).toHaveLength(PRODUCTS - 50_000);
    expect(second.isLastPage).toBe(true);
    expect(second.cursor).toBeNull();
    const ids = new Set([...first.data, ...second.data].map((entry) => entry.id));
    expect(ids.size).toBe(PRODUCTS);
    // Oldest first, with the date a sitemap's <lastmod> needs.
    expect(first.data[0]!.lastModified).toBe('2024-01-01T00:00:00.000Z');
    expect(second.data.at(-1)!.lastModified).toBe(new Date(Date.UTC(2024, 0, 1) + Math.floor(PRODUCTS / 3) * 1000).toISOString());
  }, 60_000);

  it('pages in smaller steps with limit and size, without gaps across equal timestamps', async () => {
    const { starts } = (await app.inject({ url: '/api/products/sitemap/pages', query: { size: '7' } })).json() as {
      starts: (string | null)[];
    };
    expect(starts).toHaveLength(Math.ceil(PRODUCTS / 7));
    const a = (await app.inject({ url: '/api/products/sitemap', query: { limit: '7', after: starts[1]! } })).json() as EntryPage;
    const b = (await app.inject({ url: '/api/products/sitemap', query: { limit: '7', after: starts[2]! } })).json() as EntryPage;
    const direct = (await app.inject({ url: '/api/products/sitemap', query: { limit: '21' } })).json() as EntryPage;
    expect([...a.data, ...b.data].map((entry) => entry.id)).toEqual(direct.data.slice(7, 21).map((entry) => entry.id));
  });

  it('refuses a forged cursor and a limit above 50,000 with 400', async () => {
    const forged = await app.inject({ url: '/api/products/sitemap', query: { after: 'not-a-cursor' } });
    const tooMany = await app.inject({ url: '/api/products/sitemap', query: { limit: '50001' } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ error: { code: 'VALIDATION' } });
    expect(tooMany.statusCode).toBe(400);
  });

  it('answers an empty catalogue with no files', async () => {
    await resetDatabase(app);
    const pages = await app.inject({ url: '/api/products/sitemap/pages' });
    expect(pages.json()).toEqual({ total: 0, starts: [] });
    expect((await app.inject({ url: '/api/products/sitemap' })).json()).toEqual({ data: [], cursor: null, isLastPage: true });
  });
});
