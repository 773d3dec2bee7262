import { describe, expect, it } from 'vitest';
import { absoluteUrl, buildHead, jsonForScript, plainText, renderHead, type HeadProduct } from './head';
import { matchPage } from './pages';
import { SHOP_ROUTES } from './test/shop-routes';

const PUBLIC_URL = 'https://boats.example';
const ID = '0b7e6f4e-6a43-4d3f-9b7e-2f1c7a9d5e11';

function product(overrides: Partial<HeadProduct> = {}): HeadProduct {
  return {
    id: ID,
    name: 'Aldren 22 Daysailer',
    thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
    priceCents: 2_190_000,
    descriptionHtml: '<p>A light, <strong>forgiving</strong> daysailer &amp; trailer sailer.</p>',
    category: 'sailing-boats',
    ...overrides,
  };
}

function headOf(path: string, data: Parameters<typeof buildHead>[2] = null) {
  const url = new URL(path, PUBLIC_URL);
  return buildHead(matchPage(url.pathname, url.searchParams, SHOP_ROUTES), url.pathname, data, PUBLIC_URL);
}

/** The JSON-LD block of rendered head HTML, parsed as a crawler would. */
function jsonLdOf(html: string): unknown {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

describe('buildHead for a product', () => {
  it('gives the title, a plain-text description, absolute canonical and picture URLs and the price in euros', () => {
    const head = headOf(`/product/${ID}?utm_source=mail`, { product: product() });

    expect(head.status).toBe(200);
    expect(head.title).toBe('Aldren 22 Daysailer, 21.900,00\u00a0€ | Boat shop');
    expect(head.description).toBe('A light, forgiving daysailer & trailer sailer.');
    expect(head.canonical).toBe(`https://boats.example/product/${ID}`);
    expect(head.robots).toBeNull();
    expect(Object.fromEntries(head.openGraph)).toMatchObject({
      'og:type': 'product',
      'og:title': 'Aldren 22 Daysailer',
      'og:image': 'https://boats.example/api/images/aldren-22-daysailer.svg',
      'og:url': `https://boats.example/product/${ID}`,
      'product:price:amount': '21900.00',
      'product:price:currency': 'EUR',
    });
    expect(Object.fromEntries(head.twitter)).toMatchObject({
      'twitter:card': 'summary_large_image',
      'twitter:image': 'https://boats.example/api/images/aldren-22-daysailer.svg',
    });
    expect(head.jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Aldren 22 Daysailer',
      image: ['https://boats.example/api/images/aldren-22-daysailer.svg'],
      offers: {
        '@type': 'Offer',
        price: '21900.00',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
        url: `https://boats.example/product/${ID}`,
      },
    });
  });

  it('maps the stock availability onto schema.org, InStock when the API does not send it', () => {
    const availability = (value: HeadProduct['availability']) =>
      (headOf(`/product/${ID}`, { product: product({ availability: value }) }).jsonLd?.offers as { availability: string }).availability;

    expect(availability('in_stock')).toBe('https://schema.org/InStock');
    expect(availability('reserved')).toBe('https://schema.org/OutOfStock');
    expect(availability('sold_out')).toBe('https://schema.org/SoldOut');
    expect(availability(undefined)).toBe('https://schema.org/InStock');
  });

  it('leaves out what is missing: no picture, no description', () => {
    const head = headOf(`/product/${ID}`, { product: product({ thumbnailUrl: '', descriptionHtml: null }) });

    expect(head.description).toBe('Aldren 22 Daysailer for 21.900,00\u00a0€ at Boat shop.');
    expect(head.openGraph.map(([property]) => property)).not.toContain('og:image');
    expect(Object.fromEntries(head.twitter)['twitter:card']).toBe('summary');
    expect(head.jsonLd).not.toHaveProperty('image');
    expect(renderHead(head)).not.toContain('og:image');
  });

  it('keeps an absolute picture URL and drops one that is not http(s)', () => {
    expect(absoluteUrl(PUBLIC_URL, 'https://cdn.example/a.jpg')).toBe('https://cdn.example/a.jpg');
    expect(absoluteUrl('http://localhost:3000/', '/api/images/a.svg')).toBe('http://localhost:3000/api/images/a.svg');
    expect(absoluteUrl(PUBLIC_URL, 'javascript:alert(1)')).toBeNull();
    const head = headOf(`/product/${ID}`, { product: product({ thumbnailUrl: 'javascript:alert(1)' }) });
    expect(head.jsonLd).not.toHaveProperty('image');
  });

  it('answers an unknown product with 404, "Product not found" and noindex', () => {
    const head = headOf(`/product/${ID}`, { missing: true });

    expect(head.status).toBe(404);
    expect(head.title).toBe('Product not found | Boat shop');
    expect(head.robots).toBe('noindex, nofollow');
    expect(head.jsonLd).toBeNull();
  });

  it('falls back to the generic head, with status 200, when the API gave nothing', () => {
    const head = headOf(`/product/${ID}`, null);

    expect(head.status).toBe(200);
    expect(head.title).toBe('Boat shop: sailing boats and yachts');
    expect(head.canonical).toBe(`https://boats.example/product/${ID}`);
    expect(head.jsonLd).toBeNull();
  });
});

describe('renderHead escaping', () => {
  const hostile = product({
    name: '</script><script>alert("name")</script><!--',
    descriptionHtml: '<p>&lt;img src=x onerror=alert(1)&gt; "quoted" &amp; \u2028</p>',
    thumbnailUrl: '/api/images/a.svg?x="><script>alert(1)</script>',
  });

  it('keeps a product named </script><script>… inside its tags and its JSON-LD block', () => {
    const html = renderHead(headOf(`/product/${ID}`, { product: hostile }));

    // The only script element is the JSON-LD one, and it closes once.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '<title>&#60;/script&#62;&#60;script&#62;alert(&#34;name&#34;)&#60;/script&#62;&#60;!--, 21.900,00\u00a0€ | Boat shop</title>',
    );
    // The JSON-LD still parses to the real name.
    expect(jsonLdOf(html)).toMatchObject({ name: '</script><script>alert("name")</script><!--' });
  });

  it('escapes quotes in attribute values', () => {
    const html = renderHead(headOf(`/product/${ID}`, { product: hostile }));
    const description = /<meta name="description" content="([^"]*)">/.exec(html)?.[1];

    expect(description).toBe('&#60;img src=x onerror=alert(1)&#62; &#34;quoted&#34; &#38;');
    expect(html).toContain('content="https://boats.example/api/images/a.svg?x=%22%3E%3Cscript%3Ealert(1)%3C/script%3E"');
  });

  it('writes JSON a script element cannot be broken out of, and that parses back to the same value', () => {
    const value = { name: '</script><!-- & \u2028' };
    const json = jsonForScript(value);

    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('buildHead for the other pages', () => {
  it('titles and describes home, browse per category and search, with canonical URLs', () => {
    expect(headOf('/')).toMatchObject({
      status: 200,
      title: 'Boat shop: sailing boats and yachts',
      canonical: 'https://boats.example/',
      robots: null,
    });
    expect(headOf('/search?utm_campaign=x')).toMatchObject({
      title: 'Browse sailing boats and yachts | Boat shop',
      canonical: 'https://boats.example/search',
    });
    expect(headOf('/search/yachts')).toMatchObject({
      title: 'Yachts for sale | Boat shop',
      canonical: 'https://boats.example/search/yachts',
    });
    expect(headOf('/search/sailing-boats?cursor=abc')).toMatchObject({
      canonical: 'https://boats.example/search/sailing-boats?cursor=abc',
    });
    expect(headOf('/search?q=%3Cb%3Eketch')).toMatchObject({
      title: 'Search results for “<b>ketch” | Boat shop',
      robots: 'noindex, follow',
    });
    for (const path of ['/', '/search', '/search/yachts']) expect(headOf(path).description.length).toBeGreaterThan(50);
  });

  it('marks cart, payment, account, order, admin and sign-in pages noindex', () => {
    for (const path of [
      '/cart',
      '/payment',
      '/dashboard',
      '/order/42',
      '/admin',
      '/admin/products',
      '/login',
      '/registration',
      '/password-reset',
      '/password-reset/confirm',
      '/verify-email',
    ]) {
      const head = headOf(path);
      expect(head.robots, path).toBe('noindex, nofollow');
      expect(head.canonical, path).toBeNull();
      expect(head.status, path).toBe(200);
    }
  });

  it('answers unknown pages and unknown categories with 404 and noindex', () => {
    expect(headOf('/no-such-page')).toMatchObject({ status: 404, title: 'Page not found | Boat shop', robots: 'noindex, nofollow' });
    expect(headOf('/search/rowing-boats')).toMatchObject({ status: 404 });
    // No remote declares it, so the shell shows its not-found page: not a page either.
    expect(headOf('/verify-email/abc')).toMatchObject({ status: 404, robots: 'noindex, nofollow' });
    expect(matchPage('/product/%E0%A4%A', new URLSearchParams(), SHOP_ROUTES)).toEqual({ kind: 'not-found' });
  });

  it('answers a path no known route matches with 503, not 404, while some remote’s route data is not known', () => {
    const { mf_catalog: _catalog, ...withoutCatalog } = SHOP_ROUTES;
    const page = matchPage('/product/42', new URLSearchParams(), withoutCatalog, true);
    expect(page).toEqual({ kind: 'unavailable' });
    expect(buildHead(page, '/product/42', null, PUBLIC_URL)).toMatchObject({
      status: 503,
      title: 'Temporarily unavailable | Boat shop',
      canonical: null,
      robots: 'noindex, nofollow',
    });
    // What the known routes do match is answered as ever: the catalogue's unknown category is still a 404.
    expect(matchPage('/cart', new URLSearchParams(), withoutCatalog, true)).toEqual({ kind: 'private', title: 'Your cart' });
    expect(matchPage('/search/rowing-boats', new URLSearchParams(), SHOP_ROUTES, true)).toEqual({ kind: 'not-found' });
  });
});

describe('plainText', () => {
  it('cuts a long description at a word with an ellipsis', () => {
    const text = plainText(`<p>${'word '.repeat(60)}</p>`);
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text.endsWith('word…')).toBe(true);
  });
});
