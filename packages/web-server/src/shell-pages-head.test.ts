// The shell's server in front of a stand-in API that also plays the remotes: the head of each
// page, its status, and the first-paint hints and data block.
import { describe, expect, it } from 'vitest';
import { createWebServer } from './server';
import { remotesEnv } from './test/stand-in-remotes';
import {
  HOSTILE_ID,
  jsonScript,
  MANIFEST,
  page,
  PRODUCT_ID,
  PUBLIC_URL,
  shell,
  SLOW_ID,
  standIn,
  track,
  setUpShellPagesStandIn,
} from './test/shell-pages-stand-in';

setUpShellPagesStandIn();

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
    expect(standIn.productReads).toBe(1);
  });

  it('serves the generic head with 200 when the API is down', async () => {
    const app = await track(
      createWebServer({
        role: 'shell',
        distDir: standIn.distDir,
        apiUrl: 'http://127.0.0.1:1',
        env: { PUBLIC_URL, ...remotesEnv(standIn.apiUrl) },
      }),
    );

    const response = await page(app, `/product/${PRODUCT_ID}`);

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Boat shop: sailing boats and yachts</title>');
  });

  it('reads a product from the API once for many page views', async () => {
    const app = await shell();

    await Promise.all(Array.from({ length: 5 }, () => page(app, `/product/${PRODUCT_ID}`)));
    await page(app, `/product/${PRODUCT_ID}`);

    expect(standIn.productReads).toBe(1);
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
    expect(data.remotes.mf_catalog).toBe(`${standIn.catalogUrl}/mf-manifest.json`);
    expect(data.manifests[`${standIn.catalogUrl}/mf-manifest.json`]).toEqual(MANIFEST);
    expect(body).toContain(`<link rel="preconnect" href="${standIn.apiUrl}">`);
    expect(body).toContain(`<link rel="preload" as="script" href="${standIn.catalogUrl}/remoteEntry.js">`);
    expect(body).toContain(`<link rel="preload" as="script" href="${standIn.catalogUrl}/__federation_expose_Product.2c58931f.js">`);
    expect(body).toContain(`<link rel="preload" as="style" href="${standIn.catalogUrl}/__federation_expose_Product.091ab31a.css">`);
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
    expect(standIn.listingReads).toBe(1);
    expect((await page(app, '/search')).body).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="/api/images/aldren-22-daysailer.svg">',
    );
    expect((await page(app, '/search?q=nothing')).body).not.toContain('as="image"');
    // The home page's tiles are drawn by the catalogue; no listing is read for it.
    await page(app, '/');
    expect(standIn.listingReads).toBe(3);
  });

  it('gives no hint for the admin remote, which loads only after the admin guard', async () => {
    // mf_admin's manifest would be there to read; the catalogue is not even reachable.
    const app = await shell({ MF_CATALOG_URL: 'http://127.0.0.1:1' });

    const { body } = await page(app, '/admin');

    expect(body).not.toContain('rel="preload"');
    expect(body).toContain('id="boatshop-page-data"');
  });
});
