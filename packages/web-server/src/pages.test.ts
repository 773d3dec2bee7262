import { describe, expect, it } from 'vitest';
import { matchPage, remotePageOf } from './pages';
import { tableCollisions, validateRoutes, type RouteTable } from '@boatshop/web-shared/route-data';
import { routesFile } from '@boatshop/web-build';
import { SHOP_ROUTES } from './test/shop-routes';

const at = (path: string, routes: RouteTable = SHOP_ROUTES) => matchPage(path, new URLSearchParams(), routes);

describe('pages from route data', () => {
  it("knows every path the remotes declare, and the remotes' data is valid and without collisions", () => {
    for (const [remote, routes] of Object.entries(SHOP_ROUTES)) {
      expect(validateRoutes(routes, remote)).toBe(routes);
      for (const { path } of routes) {
        const example = path
          .replace(/:filterType/, 'yachts')
          .replace(/:[A-Za-z]+/g, '42')
          .replace(/\*$/, 'anything');
        expect(at(example).kind, example).not.toBe('not-found');
      }
    }
    expect(tableCollisions(SHOP_ROUTES)).toEqual([]);
  });

  it('takes titles from the route data, and answers what no remote declares as not found', () => {
    expect(at('/cart')).toEqual({ kind: 'private', title: 'Your cart' });
    expect(at('/admin/whatever/deep')).toEqual({ kind: 'private', title: 'Admin' });
    expect(at('/nothing-here')).toEqual({ kind: 'not-found' });
    // A page some remote adds is known as soon as its route data says so.
    const withNews = { ...SHOP_ROUTES, mf_news: [{ path: '/news/:slug', module: './News', access: 'public', layout: 'main' }] } as const;
    expect(at('/news/launch', withNews)).toEqual({ kind: 'private', title: 'Boat shop' });
    expect(remotePageOf('/news/launch', withNews)).toEqual({ remote: 'mf_news', page: 'News' });
    // Without the catalogue's route data, its pages are unknown too.
    const { mf_catalog: _catalog, ...withoutCatalog } = SHOP_ROUTES;
    expect(at('/product/42', withoutCatalog)).toEqual({ kind: 'not-found' });
  });

  it('names the remote page for first-paint hints, none behind the admin guard', () => {
    expect(remotePageOf('/product/42', SHOP_ROUTES)).toEqual({ remote: 'mf_catalog', page: 'Product' });
    expect(remotePageOf('/order/42/', SHOP_ROUTES)).toEqual({ remote: 'mf_account', page: 'Order' });
    expect(remotePageOf('/admin/orders', SHOP_ROUTES)).toBeNull();
    expect(remotePageOf('/nope', SHOP_ROUTES)).toBeNull();
  });
});

describe("a remote's build", () => {
  it('writes its route data as routes.json, and refuses a module it does not expose or invalid data', () => {
    const routes = [{ path: '/news', module: './News', access: 'public', layout: 'main' }] as const;
    expect(routesFile('mf_news', routes, { './News': './src/news.tsx' })).toEqual({ schema: 1, remote: 'mf_news', routes });
    expect(() => routesFile('mf_news', routes, {})).toThrow('mf_news: /news names ./News, which is not in exposes');
    expect(() =>
      routesFile('mf_news', [{ ...routes[0], layout: 'sideways' }] as unknown as typeof routes, { './News': './x.tsx' }),
    ).toThrow('unknown layout "sideways"');
  });
});
