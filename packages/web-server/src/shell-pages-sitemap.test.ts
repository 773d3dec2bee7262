// The shell's server in front of a stand-in API that also plays the remotes: pages while a
// remote's route data is not known, the sitemap and robots.txt.
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createWebServer } from './server';
import { SHOP_ROUTES } from './test/shop-routes';
import { serveRouteData } from './test/stand-in-remotes';
import {
  CATALOGUE_SIZE,
  idAt,
  jsonScript,
  page,
  PRODUCT_ID,
  PUBLIC_URL,
  shell,
  standIn,
  track,
  setUpShellPagesStandIn,
} from './test/shell-pages-stand-in';

setUpShellPagesStandIn();

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
    expect(standIn.productReads).toBe(0);
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
    const app = await track(
      createWebServer({ role: 'shell', distDir: standIn.distDir, apiUrl: 'http://127.0.0.1:1', env: { PUBLIC_URL } }),
    );

    expect((await app.inject({ url: '/sitemap.xml' })).statusCode).toBe(503);
  });
});
