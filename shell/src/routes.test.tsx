import { readFileSync, readdirSync } from 'node:fs';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useRoutes, type RouteObject } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $session, setSessionUser } from '@boatshop/state';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { Unreachable } from './pages/unreachable';
import { buildRoutes } from './routes';
import { admin, shopper } from './test-users';

// Each remote page renders its own name instead of loading a remote: what is under test is
// which page and guard a path reaches, and which remotes are asked for at all.
const loadRemotePage = vi.hoisted(() => vi.fn(async (remote: string, page: string) => ({ default: () => <h1>{`${remote}/${page}`}</h1> })));
vi.mock('./remotes/registry', () => ({ loadRemotePage }));

// The shop's route data as the remotes declare it (each remote's src/routes.ts; the shell may not
// import a remote's source, so this is a copy; packages/web-server's pages.test.ts reads the real ones).
// The shell's server accepts a table before the browser sees it (invalid entries and collisions
// left out: packages/web-server, remotes.test.ts), so the router is built from it as it is.
const SHOP: RouteTable = {
  mf_catalog: [
    { path: '/', module: './Home', access: 'public', layout: 'full-bleed' },
    { path: '/search', module: './Search', access: 'public', layout: 'main' },
    { path: '/search/:filterType', module: './Search', access: 'public', layout: 'main' },
    { path: '/product/:productID', module: './Product', access: 'public', layout: 'main' },
  ],
  mf_cart_checkout: [
    { path: '/cart', module: './Cart', access: 'public', layout: 'main' },
    { path: '/payment', module: './Payment', access: 'signed-in', layout: 'main' },
  ],
  mf_account: [
    { path: '/login', module: './Login', access: 'guest-only', layout: 'main' },
    { path: '/registration', module: './Registration', access: 'guest-only', layout: 'main' },
    { path: '/dashboard', module: './Dashboard', access: 'signed-in', layout: 'dashboard' },
    { path: '/order/:orderID', module: './Order', access: 'signed-in', layout: 'dashboard' },
  ],
  mf_admin: [
    { path: '/admin', module: './Admin', access: 'admin', layout: 'dashboard' },
    { path: '/admin/orders', module: './AdminOrders', access: 'admin', layout: 'dashboard' },
    { path: '/admin/orders/:orderID', module: './AdminOrder', access: 'admin', layout: 'dashboard' },
    { path: '/admin/*', access: 'admin', layout: 'dashboard' },
  ],
};

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

function renderAt(path: string, table: RouteTable = SHOP, elsewhere?: Parameters<typeof buildRoutes>[1]) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes routes={buildRoutes(table, elsewhere)} />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  loadRemotePage.mockClear();
  $session.set({ status: 'unknown', user: null });
});

describe('admin routes', () => {
  it('lead an admin to the orders list and to one order, with Products and Orders in the sidebar', async () => {
    setSessionUser(admin);
    renderAt('/admin/orders');
    expect(await screen.findByRole('heading', { name: 'mf_admin/AdminOrders' })).toBeTruthy();
    const sidebar = within(screen.getByRole('navigation', { name: 'Dashboard' }));
    expect(sidebar.getByRole('link', { name: 'Products' }).getAttribute('href')).toBe('/admin');
    expect(sidebar.getByRole('link', { name: 'Orders' }).getAttribute('aria-current')).toBe('page');
    expect(sidebar.getByRole('link', { name: 'Products' }).getAttribute('aria-current')).toBeNull();

    cleanup();
    renderAt('/admin/orders/0b7c6d1e-0000-4000-8000-000000000001');
    expect(await screen.findByRole('heading', { name: 'mf_admin/AdminOrder' })).toBeTruthy();
  });

  it('send a visitor from every /admin/* path, an unknown one too, to /login without loading mf_admin', async () => {
    setSessionUser(null);
    for (const path of ['/admin/orders', '/admin/orders/0b7c6d1e-0000-4000-8000-000000000001', '/admin/nothing-here']) {
      renderAt(path);
      expect(await screen.findByRole('heading', { name: 'mf_account/Login' })).toBeTruthy();
      expect(loadRemotePage).not.toHaveBeenCalledWith('mf_admin', expect.anything());
      cleanup();
    }
  });

  it('show an admin the not-found page for an unknown admin path', () => {
    setSessionUser(admin);
    renderAt('/admin/nothing-here');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Dashboard' })).toBeTruthy();
  });

  it('keep the shopper dashboard sidebar as it was: Home', () => {
    setSessionUser(shopper);
    renderAt('/dashboard');
    const sidebar = within(screen.getByRole('navigation', { name: 'Dashboard' }));
    expect(sidebar.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/dashboard');
    expect(sidebar.queryByRole('link', { name: 'Orders' })).toBeNull();
  });
});

describe('the router built from route data', () => {
  it('gives every page of the data its guard and its layout, and the rest the not-found page', async () => {
    setSessionUser(null);
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'mf_catalog/Home' })).toBeTruthy();
    expect(document.querySelector('main')?.className).toContain('main--full-bleed');
    cleanup();

    renderAt('/product/42');
    expect(await screen.findByRole('heading', { name: 'mf_catalog/Product' })).toBeTruthy();
    expect(document.querySelector('main')?.className).not.toContain('main--full-bleed');
    cleanup();

    // signed-in: a visitor goes to /login.
    for (const path of ['/payment', '/dashboard', '/order/42']) {
      renderAt(path);
      expect(await screen.findByRole('heading', { name: 'mf_account/Login' }), path).toBeTruthy();
      cleanup();
    }

    renderAt('/nothing/here');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText(/This page does not exist\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the shop' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('navigation', { name: 'Dashboard' })).toBeNull();
    cleanup();

    // guest-only: a signed-in shopper goes to /.
    setSessionUser(shopper);
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'mf_catalog/Home' })).toBeTruthy();
  });

  it('serves a page a remote adds to its data, with no change to the shell', async () => {
    const withRegattas: RouteTable = {
      ...SHOP,
      mf_catalog: [...SHOP.mf_catalog!, { path: '/regattas/:year', module: './Regattas', access: 'signed-in', layout: 'dashboard' }],
    };
    setSessionUser(null);
    renderAt('/regattas/2026', withRegattas);
    expect(await screen.findByRole('heading', { name: 'mf_account/Login' })).toBeTruthy();
    expect(loadRemotePage).not.toHaveBeenCalledWith('mf_catalog', 'Regattas');
    cleanup();

    setSessionUser(shopper);
    renderAt('/regattas/2026', withRegattas);
    expect(await screen.findByRole('heading', { name: 'mf_catalog/Regattas' })).toBeTruthy();
    const sidebar = within(screen.getByRole('navigation', { name: 'Dashboard' }));
    expect(sidebar.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/dashboard');
  });
});

describe('while the server does not know some remote’s pages', () => {
  const { mf_catalog: _catalog, ...withoutCatalog } = SHOP;
  const unreachable = <Unreachable askAgain={async () => undefined} />;

  it('shows a path no known route matches as a part of the shop that cannot be reached, with Retry, not as missing', () => {
    setSessionUser(null);
    renderAt('/product/42', withoutCatalog, unreachable);
    expect(screen.getByRole('heading', { level: 1, name: 'This part of the shop cannot be reached right now' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    // In the main layout: the header still leads elsewhere.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(loadRemotePage).not.toHaveBeenCalled();
  });

  it('renders the known remotes’ pages as ever, and an admin’s unknown admin path is still not found', async () => {
    setSessionUser(shopper);
    renderAt('/cart', withoutCatalog, unreachable);
    expect(await screen.findByRole('heading', { name: 'mf_cart_checkout/Cart' })).toBeTruthy();
    cleanup();

    setSessionUser(admin);
    renderAt('/admin/nothing-here', withoutCatalog, unreachable);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});

describe("the shell's bundle", () => {
  it('takes only types from the route data module: the validator stays on the server', () => {
    const src = import.meta.dirname;
    const imports = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .flatMap((file) =>
        [
          ...readFileSync(`${src}/${file}`, 'utf8').matchAll(/(import|export)\s+(type\s+)?[^;]*?from\s+'@boatshop\/[a-z-]+\/route-data'/g),
        ].map((match) => ({ file, typeOnly: Boolean(match[2]) })),
      );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(({ typeOnly }) => !typeOnly)).toEqual([]);
  });
});
