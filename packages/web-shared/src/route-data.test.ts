import { describe, expect, it } from 'vitest';
import {
  findRoute,
  parseRoutesFile,
  pathsCollide,
  RouteDataError,
  routeKey,
  tableCollisions,
  validateRoutes,
  type RouteEntry,
  type RouteTable,
} from './route-data';

const page = (path: string, more: Record<string, unknown> = {}) =>
  ({ path, module: './Page', access: 'public', layout: 'main', ...more }) as RouteEntry;

function problemsOf(value: unknown): string[] {
  try {
    validateRoutes(value, 'mf_x');
  } catch (error) {
    if (error instanceof RouteDataError) return error.problems;
    throw error;
  }
  return [];
}

describe('route data', () => {
  it('accepts the shapes remotes declare', () => {
    const routes = [
      page('/'),
      page('/search/:filterType'),
      page('/admin', { access: 'admin', layout: 'dashboard', title: 'Admin' }),
      { path: '/admin/*', access: 'admin', layout: 'dashboard' },
    ];
    expect(validateRoutes(routes, 'mf_x')).toBe(routes);
    expect(parseRoutesFile({ schema: 1, remote: 'mf_x', routes })).toEqual({ schema: 1, remote: 'mf_x', routes });
  });

  it('refuses unknown access, layout and fields, bad paths and modules, a missing module, a path twice', () => {
    expect(problemsOf([page('/a', { access: 'everyone' })])).toEqual([expect.stringContaining('unknown access "everyone"')]);
    expect(problemsOf([page('/a', { layout: 'sideways' })])).toEqual([expect.stringContaining('unknown layout "sideways"')]);
    expect(problemsOf([page('/a', { expose: './A' })])).toEqual([expect.stringContaining('unknown field "expose"')]);
    for (const path of ['a', '/a/', '/a//b', '/*', '/a/*/b', '/a b', 42])
      expect(problemsOf([page(path as string)]), String(path)).toHaveLength(1);
    expect(problemsOf([page('/a', { module: 'A' })])).toEqual([expect.stringContaining('module must name an exposed module')]);
    expect(problemsOf([{ path: '/a', access: 'public', layout: 'main' }])).toEqual([expect.stringContaining('module is required')]);
    expect(problemsOf([page('/a/:id'), page('/A/:other')])).toEqual(['mf_x: /A/:other is declared twice (also as /a/:id)']);
    expect(problemsOf({ routes: [] })).toEqual(['mf_x: routes must be an array']);
    expect(() => parseRoutesFile({ schema: 2, remote: 'mf_x', routes: [] })).toThrow('unknown schema 2');
  });

  it('tells paths one router cannot give to two remotes: same path, or a path under a claimed prefix', () => {
    expect(routeKey('/Product/:productID/')).toBe('/product/:');
    expect(pathsCollide('/product/:id', '/PRODUCT/:productID')).toBe(true);
    expect(pathsCollide('/admin/*', '/admin')).toBe(true);
    expect(pathsCollide('/admin/orders/:id', '/admin/*')).toBe(true);
    expect(pathsCollide('/administrators', '/admin/*')).toBe(false);
    expect(pathsCollide('/product/:id', '/product/new')).toBe(false);
    const table: RouteTable = { mf_a: [page('/cart')], mf_b: [page('/Cart')], mf_c: [page('/other')] };
    expect(tableCollisions(table)).toEqual([{ path: '/cart', remote: 'mf_a', otherPath: '/Cart', otherRemote: 'mf_b' }]);
  });

  it('finds the route react-router would render: static before parameter before prefix', () => {
    const table: RouteTable = {
      mf_admin: [
        page('/admin', { module: './Admin' }),
        page('/admin/orders/:id', { module: './Order' }),
        { path: '/admin/*', access: 'admin', layout: 'dashboard' },
      ],
      mf_catalog: [
        page('/', { module: './Home' }),
        page('/product/:id', { module: './Product' }),
        page('/product/new', { module: './New' }),
      ],
    };
    expect(findRoute(table, '/')?.route.module).toBe('./Home');
    expect(findRoute(table, '/product/new')?.route.module).toBe('./New');
    expect(findRoute(table, '/Product/42')?.route.module).toBe('./Product');
    expect(findRoute(table, '/admin')?.route.module).toBe('./Admin');
    expect(findRoute(table, '/admin/orders/7')?.route.module).toBe('./Order');
    expect(findRoute(table, '/admin/nothing/here')).toMatchObject({ remote: 'mf_admin', route: { path: '/admin/*' } });
    expect(findRoute(table, '/product')).toBeNull();
    expect(findRoute(table, '/nothing')).toBeNull();
  });
});
