import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebServer } from './server';
import { SHOP_ROUTES } from './test/shop-routes';
import { remotesEnv, serveRouteData } from './test/stand-in-remotes';

// The shell's server in front of a stand-in API that also plays the remotes (each remote's
// routes.json and mf_catalog's manifest, under /mf-catalog/ and the like): the head of each page,
// its status, the first-paint hints and data block, and the sitemap.

const PRODUCT_ID = '0b7e6f4e-6a43-4d3f-9b7e-2f1c7a9d5e11';
const HOSTILE_ID = '1c8f7a5f-7b54-4e4a-8c8f-3a2d8b0e6f22';
const SLOW_ID = '2d9a8b6a-8c65-4f5b-9d9a-4b3e9c1f7a33';
const PUBLIC_URL = 'https://boats.example';
const CATALOGUE_SIZE = 120_003;

let distDir: string;
let api: FastifyInstance;
let apiUrl: string;
/** Where the stand-in plays mf_catalog. */
let catalogUrl: string;
let productReads = 0;
let listingReads = 0;
const started: FastifyInstance[] = [];

const MANIFEST = {
  id: 'mf_catalog',
  name: 'mf_catalog',
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
  exposes: [
    {
      name: 'Product',
      path: './Product',
      assets: {
        js: { sync: ['__federation_expose_Product.2c58931f.js'], async: [] },
        css: { sync: ['__federation_expose_Product.091ab31a.css'], async: [] },
      },
    },
    {
      name: 'Search',
      path: './Search',
      assets: { js: { sync: ['__federation_expose_Search.36d5ef18.js'], async: [] }, css: { sync: [], async: [] } },
    },
  ],
};

/** Product ids of a catalogue too big for one sitemap file, generated rather than stored. */
const idAt = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

beforeAll(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'shell-pages-test-'));
  await writeFile(
    join(distDir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Boat shop: sailing boats and yachts</title><script defer src="/main.1234abcd.js"></script></head><body><div id="root"></div></body></html>',
  );
  await writeFile(join(distDir, 'main.1234abcd.js'), 'console.log("shell")');

  api = Fastify();
  api.get<{ Params: { id: string } }>('/api/products/:id', async (request, reply) => {
    productReads += 1;
    const { id } = request.params;
    if (id === SLOW_ID) await new Promise((resolve) => setTimeout(resolve, 1500));
    if (id === PRODUCT_ID || id === SLOW_ID) {
      return {
        id,
        name: 'Aldren 22 Daysailer',
        thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
        priceCents: 2_190_000,
        descriptionHtml: '<p>An afternoon on the water, no crew required.</p>',
        category: 'sailing-boats',
        createdAt: '2024-01-01T00:00:00.000Z',
        availability: 'sold_out',
      };
    }
    if (id === HOSTILE_ID) {
      return {
        id,
        name: '</script><script>alert(1)</script>',
        thumbnailUrl: '/x.svg',
        priceCents: 100,
        descriptionHtml: '',
        category: 'yachts',
        createdAt: '2024-01-01T00:00:00.000Z',
      };
    }
    return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
  });
  // The API's keyset paging (api/src/routes/api/products/sitemap), over generated ids: a cursor is the index of the last row.
  api.get<{ Querystring: { size: string } }>('/api/products/sitemap/pages', async (request) => {
    const size = Number(request.query.size);
    const starts: (string | null)[] = [null];
    for (let end = size; end < CATALOGUE_SIZE; end += size) starts.push(String(end - 1));
    return { total: CATALOGUE_SIZE, starts };
  });
  api.get<{ Querystring: { after?: string; limit: string } }>('/api/products/sitemap', async (request) => {
    const from = request.query.after === undefined ? 0 : Number(request.query.after) + 1;
    const to = Math.min(from + Number(request.query.limit), CATALOGUE_SIZE);
    const data = Array.from({ length: to - from }, (_, i) => ({
      id: idAt(from + i),
      lastModified: new Date(Date.UTC(2024, 0, 1) + (from + i) * 1000).toISOString(),
    }));
    return { data, cursor: to < CATALOGUE_SIZE ? String(to - 1) : null, isLastPage: to >= CATALOGUE_SIZE };
  });
  // The listing's first page: yachts has products, a search for 'nothing' has none.
  api.get<{ Querystring: { filterType?: string; q?: string } }>('/api/products', async (request) => {
    listingReads += 1;
    if (request.query.q === 'nothing') return { data: [], cursor: null, isLastPage: true };
    const picture = request.query.filterType === 'yachts' ? '/api/images/ketch-40.svg' : '/api/images/aldren-22-daysailer.svg';
    return { data: [{ id: PRODUCT_ID, thumbnailUrl: picture }], cursor: null, isLastPage: true };
  });
  api.get('/api/products/search/builders', async () => ({ data: [{ builder: 'Cap Ferrand', boats: 2 }] }));
  api.get('/:service/mf-manifest.json', async () => MANIFEST);
  serveRouteData(api);
  apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  catalogUrl = `${apiUrl}/mf-catalog`;
});

beforeEach(() => {
  productReads = 0;
  listingReads = 0;
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()));
});

afterAll(async () => {
  await api.close();
  await rm(distDir, { recursive: true, force: true });
});

async function shell(env: Record<string, string> = {}): Promise<FastifyInstance> {
  // The stand-in API also plays the remotes, so their manifest URLs are on that origin.
  const app = await createWebServer({
    role: 'shell',
    distDir,
    apiUrl,
    env: { PUBLIC_URL, ...remotesEnv(apiUrl), HEAD_API_TIMEOUT_MS: '400', ...env },
  });
  started.push(app);
  return app;
}

const page = (app: FastifyInstance, url: string) => app.inject({ url, headers: { accept: 'text/html' } });

function jsonScript(html: string, selector: RegExp): unknown {
  const match = selector.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

describe('shell server: the head of each page', () => {
  it("answers a product page with the product's title, description, sharing tags and Product JSON-LD", async () => {
    const app = await shell();

    const response = await page(app, `/product/${PRODUCT_ID}`);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<title>Aldren 22 Daysailer, 21.900,00\u00a0€ | Boat shop</title>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<meta name="description" content="An afternoon on the water, no crew required.">');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/product/${PRODUCT_ID}">`);
    expect(html).toContain(`<meta property="og:image" content="${PUBLIC_URL}/api/images/aldren-22-daysailer.svg">`);
    expect(html).toContain('<meta property="product:price:amount" content="21900.00">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).not.toContain('name="robots"');
    expect(jsonScript(html, /<script type="application\/ld\+json">(.*?)<\/script>/)).toMatchObject({
      '@type': 'Product',
      offers: { price: '21900.00', priceCurrency: 'EUR', availability: 'https://schema.org/SoldOut' },
    });
    expect(html).toContain('<div id="root"></div>');
  });

  it('answers an unknown product with 404 and the shop page saying "Product not found"', async () => {
    const app = await shell();

    const response = await page(app, '/product/3e0b9c7b-9d76-4a6c-8eab-5c4fad2a8b44');
    const notAnId = await page(app, '/product/42');

    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<title>Product not found | Boat shop</title>');
    expect(response.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(response.body).toContain('<div id="root"></div>');
    expect(notAnId.statusCode).toBe(404);
    // Broken percent-encoding: Fastify's own 400, never a 5xx.
    expect((await page(app, '/product/%E0%A4%A')).statusCode).toBe(400);
  });

  it('keeps a hostile product name inside its tags', async () => {
    const app = await shell();

    const { body } = await page(app, `/product/${HOSTILE_ID}`);

    expect(body).not.toContain('<script>alert(1)');
    expect(jsonScript(body, /<script type="application\/ld\+json">(.*?)<\/script>/)).toMatchObject({
      name: '</script><script>alert(1)</script>',
    });
  });

  it('serves the generic head with 200 when the API is slower than the time-out, then the real one from the cache', async () => {
    const app = await shell();

    const startedAt = Date.now();
    const slow = await page(app, `/product/${SLOW_ID}`);
    const elapsed = Date.now() - startedAt;

    expect(slow.statusCode).toBe(200);
    expect(slow.body).toContain('<title>Boat shop: sailing boats and yachts</title>');
    expect(elapsed).toBeLessThan(1200);
    // The read carried on and filled the cache: a later visitor gets the real head at once.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect((await page(app, `/product/${SLOW_ID}`)).body).toContain('<title>Aldren 22 Daysailer, 21.900,00\u00a0€ | Boat shop</title>');
    expect(productReads).toBe(1);
  });

  it('serves the generic head with 200 when the API is down', async () => {
    const app = await track(
      createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: { PUBLIC_URL, ...remotesEnv(apiUrl) } }),
    );

    const response = await page(app, `/product/${PRODUCT_ID}`);

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Boat shop: sailing boats and yachts</title>');
  });

  it('reads a product from the API once for many page views', async () => {
    const app = await shell();

    await Promise.all(Array.from({ length: 5 }, () => page(app, `/product/${PRODUCT_ID}`)));
    await page(app, `/product/${PRODUCT_ID}`);

    expect(productReads).toBe(1);
  });

  it('titles the home, browse and search pages and answers / through the same renderer', async () => {
    const app = await shell();

    const home = await page(app, '/');
    const browse = await page(app, '/search/sailing-boats');
    const search = await page(app, '/search?q=ketch');

    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/">`);
    expect(home.body).toMatch(/<meta name="description" content="[^"]{50,}">/);
    expect(browse.body).toContain('<title>Sailing boats for sale | Boat shop</title>');
    expect(search.body).toContain('<meta name="robots" content="noindex, follow">');
    expect((await page(app, '/search/rowing-boats')).statusCode).toBe(404);
  });

  it('marks private and sign-in pages noindex', async () => {
    const app = await shell();

    for (const url of [
      '/cart',
      '/payment',
      '/dashboard',
      '/order/7',
      '/admin',
      '/login',
      '/registration',
      '/password-reset',
      '/password-reset/confirm?token=x',
      '/verify-email?token=x',
    ]) {
      const response = await page(app, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(response.body, url).not.toContain('rel="canonical"');
    }
  });
});

describe('shell server: first paint', () => {
  it("gives the runtime the remotes and the page's remote manifest in a data block, and hints its entry, chunk and API data", async () => {
    const app = await shell();

    const { body } = await page(app, `/product/${PRODUCT_ID}`);

    const data = jsonScript(body, /<script type="application\/json" id="boatshop-page-data">(.*?)<\/script>/) as {
      remotes: Record<string, string>;
      manifests: Record<string, unknown>;
    };
    expect(data.remotes.mf_catalog).toBe(`${catalogUrl}/mf-manifest.json`);
    expect(data.manifests[`${catalogUrl}/mf-manifest.json`]).toEqual(MANIFEST);
    expect(body).toContain(`<link rel="preconnect" href="${apiUrl}">`);
    expect(body).toContain(`<link rel="preload" as="script" href="${catalogUrl}/remoteEntry.js">`);
    expect(body).toContain(`<link rel="preload" as="script" href="${catalogUrl}/__federation_expose_Product.2c58931f.js">`);
    expect(body).toContain(`<link rel="preload" as="style" href="${catalogUrl}/__federation_expose_Product.091ab31a.css">`);
    expect(body).toContain(`<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/products/${PRODUCT_ID}">`);
    expect(body).toContain('<link rel="preload" as="image" fetchpriority="high" href="/api/images/aldren-22-daysailer.svg">');
    // Data only: no inline script the CSP would have to allow.
    expect(body.match(/<script(?![^>]*type="application\/(json|ld\+json)")[^>]*>/g)).toEqual(['<script defer src="/main.1234abcd.js">']);
  });

  it("hints the listing's first API call as the catalogue spells it", async () => {
    const app = await shell();

    expect((await page(app, '/search')).body).toContain('<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/products">');
    expect((await page(app, '/search/yachts?q=ketch')).body).toContain('href="/api/products?filterType=yachts&#38;q=ketch"');
    expect((await page(app, '/search/yachts?q=ketch&available=1')).body).toContain(
      'href="/api/products?filterType=yachts&#38;q=ketch&#38;available=true"',
    );
  });

  it("hints a listing's first picture (its largest paint on a phone) with high priority, read once per period", async () => {
    const app = await shell();

    const yachts = (await page(app, '/search/yachts')).body;
    await page(app, '/search/yachts');

    expect(yachts).toContain('<link rel="preload" as="image" fetchpriority="high" href="/api/images/ketch-40.svg">');
    expect(listingReads).toBe(1);
    expect((await page(app, '/search')).body).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="/api/images/aldren-22-daysailer.svg">',
    );
    expect((await page(app, '/search?q=nothing')).body).not.toContain('as="image"');
    // The home page's tiles are drawn by the catalogue; no listing is read for it.
    await page(app, '/');
    expect(listingReads).toBe(3);
  });

  it('gives no hint for the admin remote, which loads only after the admin guard', async () => {
    // mf_admin's manifest would be there to read; the catalogue is not even reachable.
    const app = await shell({ MF_CATALOG_URL: 'http://127.0.0.1:1' });

    const { body } = await page(app, '/admin');

    expect(body).not.toContain('rel="preload"');
    expect(body).toContain('id="boatshop-page-data"');
  });
});

describe('shell server: a remote whose route data is not known', () => {
  it('names it unavailable, answers what no known route matches with 503 and Retry-After instead of 404, and recovers once it answers', async () => {
    // mf_catalog's port refuses connections from the start, until a stand-in starts there.
    const probe = Fastify();
    const port = Number(new URL(await probe.listen({ port: 0, host: '127.0.0.1' })).port);
    await probe.close();
    const app = await shell({ MF_CATALOG_URL: `http://127.0.0.1:${port}/mf-catalog` });

    const remotes = (await app.inject({ url: '/remotes.json' })).json() as { routes: Record<string, unknown>; unavailable: string[] };
    expect(remotes.unavailable).toEqual(['mf_catalog']);
    expect(remotes.routes.mf_catalog).toBeUndefined();
    expect(remotes.routes.mf_cart_checkout).toEqual(SHOP_ROUTES.mf_cart_checkout);
    for (const url of [`/product/${PRODUCT_ID}`, '/', '/nothing-here']) {
      const response = await page(app, url);
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after'], url).toBe('60');
      expect(response.body, url).toContain('<title>Temporarily unavailable | Boat shop</title>');
      expect(response.body, url).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(response.body, url).not.toContain('rel="canonical"');
      expect(jsonScript(response.body, /<script type="application\/json" id="boatshop-page-data">(.*?)<\/script>/), url).toMatchObject({
        unavailable: ['mf_catalog'],
      });
    }
    // Nothing was asked of the API for a page that may not exist, and the other remotes' pages are as before.
    expect(productReads).toBe(0);
    expect((await page(app, '/cart')).statusCode).toBe(200);

    const catalog = Fastify();
    serveRouteData(catalog);
    await catalog.listen({ port, host: '127.0.0.1' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Past the 5 s the server keeps an answer, the route data is read again.
      vi.setSystemTime(Date.now() + 6_000);
      const product = await page(app, `/product/${PRODUCT_ID}`);
      expect(product.statusCode).toBe(200);
      expect(product.headers['retry-after']).toBeUndefined();
      expect(product.body).toContain('<title>Aldren 22 Daysailer, 21.900,00\u00a0€ | Boat shop</title>');
      expect((await app.inject({ url: '/remotes.json' })).json()).toMatchObject({
        unavailable: [],
        routes: { mf_catalog: SHOP_ROUTES.mf_catalog },
      });
      // With every remote's route data known, a path none declares is a 404 again.
      expect((await page(app, '/nothing-here')).statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
      await catalog.close();
    }
  });
});

describe('shell server: sitemap and robots.txt', () => {
  it('points robots.txt at the sitemap index', async () => {
    const app = await shell();

    const response = await app.inject({ url: '/robots.txt' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it('splits 120,003 products into sitemap files of 50,000, each product once, with lastmod', async () => {
    const app = await shell();

    const index = await app.inject({ url: '/sitemap.xml' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    const files = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(files).toEqual([
      `${PUBLIC_URL}/sitemaps/pages.xml`,
      `${PUBLIC_URL}/sitemaps/products-1.xml`,
      `${PUBLIC_URL}/sitemaps/products-2.xml`,
      `${PUBLIC_URL}/sitemaps/products-3.xml`,
    ]);

    const seen = new Set<string>();
    for (const [file, expected] of [
      ['products-1.xml', 50_000],
      ['products-2.xml', 50_000],
      ['products-3.xml', 20_003],
    ] as const) {
      const response = await app.inject({ url: `/sitemaps/${file}` });
      expect(response.statusCode, file).toBe(200);
      const urls = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(urls, file).toHaveLength(expected);
      for (const url of urls) seen.add(url);
      expect(response.body).toContain('<lastmod>');
    }
    expect(seen.size).toBe(CATALOGUE_SIZE);
    expect(seen.has(`${PUBLIC_URL}/product/${idAt(0)}`)).toBe(true);
    expect(seen.has(`${PUBLIC_URL}/product/${idAt(CATALOGUE_SIZE - 1)}`)).toBe(true);
    expect((await app.inject({ url: '/sitemaps/products-4.xml' })).statusCode).toBe(404);
  }, 60_000);

  it('lists the home, browse, category and builder pages', async () => {
    const app = await shell();

    const { body } = await app.inject({ url: '/sitemaps/pages.xml' });

    for (const path of ['/', '/search', '/search/sailing-boats', '/search/yachts', '/search?builder=Cap+Ferrand'])
      expect(body).toContain(`<loc>${PUBLIC_URL}${path}</loc>`);
  });

  it('answers 503, not a broken sitemap, when the API is down', async () => {
    const app = await track(createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: { PUBLIC_URL } }));

    expect((await app.inject({ url: '/sitemap.xml' })).statusCode).toBe(503);
  });
});

async function track(app: Promise<FastifyInstance>): Promise<FastifyInstance> {
  const instance = await app;
  started.push(instance);
  return instance;
}
