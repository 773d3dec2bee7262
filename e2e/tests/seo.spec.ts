import { expect, test } from '../support/fixtures';

interface ApiProduct {
  id: string;
  name: string;
  thumbnailUrl: string;
  priceCents: number;
}

/** The attribute `content` of the first `<meta {key}="{name}">` in the HTML, decoded. */
function meta(html: string, key: 'name' | 'property', name: string): string | null {
  const match = new RegExp(`<meta ${key}="${name}" content="([^"]*)">`).exec(html);
  return match ? decodeEntities(match[1]!) : null;
}

function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

test.describe('a shared product link, as a crawler or a link preview fetches it (no JavaScript)', () => {
  test('carries the title, price, picture and a valid Product JSON-LD; an unknown product is a 404 page', async ({ request, baseURL }) => {
    const listing = await request.get('/api/products?limit=1');
    const product = ((await listing.json()) as { data: ApiProduct[] }).data[0]!;
    const productUrl = `${baseURL}/product/${product.id}`;

    const response = await request.get(`/product/${product.id}`, { headers: { accept: 'text/html' } });

    expect(response.status()).toBe(200);
    const html = await response.text();
    const title = decodeEntities(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
    expect(title).toContain(product.name);
    const euros = (product.priceCents / 100).toFixed(2);
    expect(meta(html, 'property', 'product:price:amount')).toBe(euros);
    expect(meta(html, 'property', 'product:price:currency')).toBe('EUR');
    const picture = new URL(product.thumbnailUrl, `${baseURL}/`).href;
    expect(meta(html, 'property', 'og:image')).toBe(picture);
    expect(meta(html, 'name', 'twitter:image')).toBe(picture);
    expect(meta(html, 'property', 'og:title')).toBe(product.name);
    expect(meta(html, 'name', 'description')?.length).toBeGreaterThan(20);
    expect(html).toContain(`<link rel="canonical" href="${productUrl}">`);

    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      url: productUrl,
      // Every picture of the boat; the listing's thumbnail among them (a boat with a gallery, such
      // as one a gallery journey added, lists its photos too).
      image: expect.arrayContaining([picture]),
      offers: { '@type': 'Offer', price: euros, priceCurrency: 'EUR', url: productUrl },
    });
    expect(String((blocks[0]!.offers as { availability: string }).availability)).toMatch(
      /^https:\/\/schema\.org\/(InStock|OutOfStock|SoldOut)$/,
    );

    const missing = await request.get('/product/00000000-0000-4000-8000-000000000000', { headers: { accept: 'text/html' } });
    expect(missing.status()).toBe(404);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain('<title>Product not found | Boat shop</title>');
    expect(missingHtml).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  test('the sitemap that robots.txt names lists the product pages', async ({ request, baseURL }) => {
    const robots = await (await request.get('/robots.txt')).text();
    const sitemapUrl = /^Sitemap: (.+)$/m.exec(robots)?.[1];
    expect(sitemapUrl).toBe(`${baseURL}/sitemap.xml`);

    const index = await (await request.get('/sitemap.xml')).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(files).toContain('/sitemaps/products-1.xml');
    const products = await (await request.get('/sitemaps/products-1.xml')).text();
    const listing = (await (await request.get('/api/products?limit=1')).json()) as { data: ApiProduct[] };
    expect(products).toContain(`<loc>${baseURL}/product/${listing.data[0]!.id}</loc>`);
  });

  test('a shopper with JavaScript sees the same product the head describes', async ({ page }) => {
    const listing = (await (await page.request.get('/api/products?limit=1')).json()) as { data: ApiProduct[] };
    const product = listing.data[0]!;

    await page.goto(`/product/${product.id}`);

    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(product.name));

    // Once the shopper moves on inside the app, the tab no longer names that product.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveTitle('Boat shop: sailing boats and yachts');
  });
});
