import { GALLERY_MAIN_SIZES } from '@boatshop/contract/constants';
import { describe, expect, it } from 'vitest';
import { apiDataOf, pictureHint, searchSummaryOf } from './first-paint';
import { buildHead } from './head';
import { matchPage } from './pages';
import { SHOP_ROUTES } from './test/shop-routes';

const base = {
  id: '7c0a3c1e-8f1e-4a57-9d5b-0c1f2f3a4b5c',
  name: 'Aurora Bay 40',
  priceCents: 100,
  thumbnailUrl: '/api/images/aurora-bay-40.svg',
};
const key = `${base.id}/${'a'.repeat(32)}`;
const uploaded = {
  src: `/api/pictures/${key}-800.jpg`,
  variants: [
    { format: 'avif' as const, width: 400, url: `/api/pictures/${key}-400.avif` },
    { format: 'avif' as const, width: 800, url: `/api/pictures/${key}-800.avif` },
    { format: 'jpeg' as const, width: 800, url: `/api/pictures/${key}-800.jpg` },
  ],
};

describe("a product page's picture preload", () => {
  it('preloads the AVIF the gallery will pick when the first picture was uploaded', () => {
    const hint = pictureHint({ product: { ...base, thumbnailUrl: uploaded.src, pictures: [uploaded] } });
    expect(hint).toBe(
      `<link rel="preload" as="image" fetchpriority="high" type="image/avif" imagesrcset="/api/pictures/${key}-400.avif 400w, /api/pictures/${key}-800.avif 800w" imagesizes="${GALLERY_MAIN_SIZES}">`,
    );
  });

  it('preloads the linked address otherwise, as before galleries', () => {
    const linked = { src: base.thumbnailUrl, variants: [] };
    expect(pictureHint({ product: { ...base, pictures: [linked] } })).toBe(
      '<link rel="preload" as="image" fetchpriority="high" href="/api/images/aurora-bay-40.svg">',
    );
    expect(pictureHint({ product: base })).toContain('href="/api/images/aurora-bay-40.svg"');
  });
});

describe("a product page's JSON-LD images", () => {
  it('lists every picture once, the card picture first', () => {
    const path = `/product/${base.id}`;
    const head = buildHead(
      matchPage(path, new URLSearchParams(), SHOP_ROUTES),
      path,
      {
        product: { ...base, thumbnailUrl: uploaded.src, pictures: [uploaded, { src: 'https://cdn.example.test/deck.jpg', variants: [] }] },
      },
      'https://shop.example',
    );
    expect((head.jsonLd as unknown as { image: string[] }).image).toEqual([
      `https://shop.example${uploaded.src}`,
      'https://cdn.example.test/deck.jpg',
    ]);
  });
});

describe("a listing address's API read", () => {
  const read = (address: string) => {
    const url = new URL(address, 'http://shop.test');
    const page = matchPage(url.pathname, url.searchParams, SHOP_ROUTES);
    return { list: apiDataOf(page, url.searchParams), counts: searchSummaryOf(page, url.searchParams) };
  };

  it('reads the plain list and its counts apart while no facet is chosen', () => {
    expect(read('/search/yachts?q=teak&available=1&sort=newest')).toEqual({
      list: '/api/products?filterType=yachts&q=teak&available=true',
      counts: '/api/products/search?category=yachts&q=teak&hideSold=true&limit=1',
    });
  });

  it('reads a faceted search from the search API, which answers the counts with the list', () => {
    // As a form sends it: builders repeated, empty fields, euros.
    const { list, counts } = read('/search?q=&builder=Aldren&builder=Riviera&condition=&priceMin=20000&vatPaid=1&sort=price-asc&cursor=c1');
    expect(counts).toBeNull();
    const asked = new URL(list!, 'http://shop.test');
    expect(asked.pathname).toBe('/api/products/search');
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      builder: 'Aldren,Riviera',
      priceMin: '2000000',
      vatPaid: 'true',
      sort: 'price-asc',
      cursor: 'c1',
    });
  });

  it('reads nothing for facets the page would not read as they are (the browser renders that address)', () => {
    expect(read('/search?priceMin=-5').list).toBeNull();
    expect(read('/search?vatPaid=yes').list).toBeNull();
  });
});
