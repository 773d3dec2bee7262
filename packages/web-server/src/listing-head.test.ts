import { describe, expect, it } from 'vitest';
import { buildHead, renderHead } from './head';
import { matchPage } from './pages';
import { SHOP_ROUTES } from './test/shop-routes';

const PUBLIC_URL = 'https://boats.example';

function headOf(path: string) {
  const url = new URL(path, PUBLIC_URL);
  return buildHead(matchPage(url.pathname, url.searchParams, SHOP_ROUTES), url.pathname, null, PUBLIC_URL);
}

// docs/adr/0049: category and builder pages are indexed under their canonical URL; every other
// filter combination is followed but not indexed.
describe('the head of catalogue listings with facet choices', () => {
  it('indexes a builder page under /search?builder=…, titled by the builder, tracking parameters left out', () => {
    const head = headOf('/search?builder=Cap%20Ferrand&utm_source=news');
    expect(head).toMatchObject({
      title: 'Cap Ferrand boats for sale | Boat shop',
      canonical: 'https://boats.example/search?builder=Cap+Ferrand',
      robots: null,
    });
    const html = renderHead(head);
    expect(html).toContain('<link rel="canonical" href="https://boats.example/search?builder=Cap+Ferrand">');
    expect(html).not.toContain('name="robots"');
    expect(headOf('/search?builder=Halvard&cursor=abc').canonical).toBe('https://boats.example/search?builder=Halvard&cursor=abc');
  });

  it('keeps the category pages indexed, an empty choice being no choice', () => {
    expect(headOf('/search/yachts?builder=&sort=')).toMatchObject({
      title: 'Yachts for sale | Boat shop',
      canonical: 'https://boats.example/search/yachts',
      robots: null,
    });
  });

  it.each([
    '/search/yachts?lengthMin=15&lengthMax=25&yearMin=2018',
    '/search/yachts?builder=Belmare',
    '/search?builder=Halvard,Cap%20Ferrand',
    '/search?builder=Halvard&sort=price-asc',
    '/search?builder=Halvard&builder=Belmare',
    '/search?condition=used',
    '/search/sailing-boats?available=1',
    '/search?vatPaid=1',
    '/search?country=HR&cursor=abc',
  ])('marks %s noindex, follow with no canonical URL', (path) => {
    const head = headOf(path);
    expect(head.robots).toBe('noindex, follow');
    expect(head.canonical).toBeNull();
    expect(head.status).toBe(200);
    const html = renderHead(head);
    expect(html).toContain('<meta name="robots" content="noindex, follow">');
    expect(html).not.toContain('rel="canonical"');
    expect(html).not.toContain('og:url');
  });
});
