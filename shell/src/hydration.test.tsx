import { act, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useParams } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $cart, $session, setSessionUser } from '@boatshop/state';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { PAGE_DATA_ID } from '@boatshop/web-shared/remotes-body';
import type { ServerPageData } from '@boatshop/web-shared/server-pages';
import { App } from './App';
import { startApp } from './hydration';
import { forgetPageData } from './remotes/page-data';
import type { KnownRoutes } from './remotes/registry';
import frame from './server';

// A remote page as the catalogue's are: its data in a module-level store that `hydrateWith`
// sets from the server's data, and its route parameter from the shell's router.
const $name = atom<string | null>(null);
function ProductPage() {
  const { productID } = useParams();
  const name = useStore($name);
  return (
    <article>
      <h1>{name ?? 'Loading…'}</h1>
      <p>{`id ${productID}`}</p>
      <button type="button">Add to cart</button>
    </article>
  );
}
const hydrateWith = vi.fn((_url: string, data: ServerPageData) => {
  if (!data || !('product' in data)) return false;
  $name.set((data.product as { name: string }).name);
  return true;
});

const ROUTES: RouteTable = {
  mf_catalog: [{ path: '/product/:productID', module: './Product', access: 'public', layout: 'main' }],
};
const registry = vi.hoisted(() => ({
  givenRoutes: vi.fn<() => KnownRoutes | null>(),
  loadRoutes: vi.fn<() => Promise<KnownRoutes>>(),
  askRoutesAgain: vi.fn<() => Promise<KnownRoutes>>(),
  loadRemotePage: vi.fn(),
  loadRemoteModule: vi.fn<(remote: string, page: string) => Promise<Record<string, unknown>>>(),
}));
vi.mock('./remotes/registry', () => registry);

const DATA = { product: { name: 'Sea Breeze 34' } };

/** The page as the shell's server sends it: its frame and page rendered into #root, the data block beside. */
function serverPage(url: string, serverRendered: object | null = { remote: 'mf_catalog', module: 'Product', url, data: DATA }) {
  act(() => $name.set(DATA.product.name));
  const element = frame.render({
    url,
    routes: ROUTES,
    unavailable: [],
    page: { remote: 'mf_catalog', module: './Product', component: ProductPage },
  });
  const html = renderToString(element as React.ReactElement);
  // The browser starts with none of the server's module state.
  act(() => $name.set(null));
  const block = {
    remotes: { mf_catalog: 'http://remote/mf-manifest.json' },
    routes: ROUTES,
    unavailable: [],
    manifests: {},
    ...(serverRendered ? { serverRendered } : {}),
  };
  document.body.innerHTML = `<div id="root">${html}</div><script type="application/json" id="${PAGE_DATA_ID}">${JSON.stringify(block)}</script>`;
  window.history.replaceState(null, '', url);
  return { root: document.getElementById('root')!, html };
}

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// React's act() for the hydration's updates.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const errors = vi.spyOn(console, 'error');
const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

beforeEach(() => {
  forgetPageData();
  registry.givenRoutes.mockReturnValue({ routes: ROUTES, unavailable: [] });
  registry.loadRemoteModule.mockResolvedValue({ default: ProductPage, hydrateWith });
});
afterEach(() => {
  act(() => {
    setSessionUser(null);
    $session.set({ status: 'unknown', user: null });
    $cart.set([]);
  });
  vi.clearAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('the shell hydrates the server’s render of a page', () => {
  it('hydrates the frame and the remote page without a mismatch, then draws the signed-in name and the cart', async () => {
    const { root, html } = serverPage('/product/p7');
    expect(html).toContain('Sea Breeze 34');
    expect(html).toContain('log in');
    // The visitor is signed in with two boats in the cart before hydration: the server knew neither.
    setSessionUser({ id: 'u1', email: 'ann@example.com', displayName: 'Ann', userRoles: ['user'], emailVerified: true } as never);
    $cart.set([{ productId: 'p1', name: 'A', priceCents: 100, quantity: 2, thumbnailUrl: '' }] as never);
    const serverNodes = root.querySelector('h1');

    let outcome: string | undefined;
    await act(async () => {
      outcome = await startApp(root, app, { pathname: '/product/p7', search: '' });
    });

    expect(outcome).toBe('hydrated');
    expect(registry.loadRemoteModule).toHaveBeenCalledWith('mf_catalog', 'Product');
    expect(hydrateWith).toHaveBeenCalledWith('/product/p7', DATA);
    // No recoverable error (React reports a mismatch as one) and no warning of React's.
    expect(errors).not.toHaveBeenCalled();
    // Hydrated, not rendered anew: the server's nodes are the page's.
    expect(root.querySelector('h1')).toBe(serverNodes);
    expect(root.querySelector('h1')?.textContent).toBe('Sea Breeze 34');
    expect(root.textContent).toContain('id p7');
    // The personal parts, drawn after hydration.
    expect(root.textContent).toContain('your cart (2)');
    expect(root.textContent).not.toContain('log in');
  });

  it.each([
    ['the remote module does not load', () => registry.loadRemoteModule.mockRejectedValue(new Error('remote unavailable'))],
    ['the release cannot hydrate (no hydrateWith)', () => registry.loadRemoteModule.mockResolvedValue({ default: ProductPage })],
    ['the data does not fit the page', () => hydrateWith.mockReturnValueOnce(false)],
  ])('renders the page anew in the browser when %s', async (_case, arrange) => {
    arrange();
    const { root } = serverPage('/product/p7');
    const serverNodes = root.querySelector('h1');
    let outcome: string | undefined;
    await act(async () => {
      outcome = await startApp(root, app, { pathname: '/product/p7', search: '' });
    });
    expect(outcome).toBe('rendered');
    expect(root.querySelector('h1')).not.toBe(serverNodes);
    expect(warnings).toHaveBeenCalledWith('The server-rendered page is rendered anew in the browser:', expect.any(String));
  });

  it('renders anew without trying when the server did not render the page, or rendered another address', async () => {
    for (const [rendered, location] of [
      [null, '/product/p7'],
      [{ remote: 'mf_catalog', module: 'Product', url: '/product/p8', data: DATA }, '/product/p7'],
    ] as const) {
      forgetPageData();
      const { root } = serverPage('/product/p7', rendered);
      let outcome: string | undefined;
      await act(async () => {
        outcome = await startApp(root, app, { pathname: location, search: '' });
      });
      expect(outcome).toBe('rendered');
    }
    expect(hydrateWith).not.toHaveBeenCalled();
  });
});
