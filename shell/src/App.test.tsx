import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $session, setSessionUser } from '@boatshop/state';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { App } from './App';
import type { KnownRoutes } from './remotes/registry';

// The remotes' route data as the shell's server gives it, and remote pages that render their
// names: what is under test is what the shell shows while a remote's pages are unknown, and Retry.
const registry = vi.hoisted(() => ({
  givenRoutes: vi.fn<() => KnownRoutes | null>(),
  loadRoutes: vi.fn<() => Promise<KnownRoutes>>(),
  askRoutesAgain: vi.fn<() => Promise<KnownRoutes>>(),
  loadRemotePage: vi.fn(async (remote: string, page: string) => ({ default: () => <h1>{`${remote}/${page}`}</h1> })),
}));
vi.mock('./remotes/registry', () => registry);

const CART: RouteTable = { mf_cart_checkout: [{ path: '/cart', module: './Cart', access: 'public', layout: 'main' }] };
const WITH_CATALOG: RouteTable = {
  mf_catalog: [{ path: '/product/:productID', module: './Product', access: 'public', layout: 'main' }],
  ...CART,
};

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  $session.set({ status: 'unknown', user: null });
  window.history.replaceState(null, '', '/');
});

describe('the shell while a remote’s pages are unknown', () => {
  it('says this part of the shop cannot be reached, and Retry asks the server again until the page is there', async () => {
    setSessionUser(null);
    window.history.replaceState(null, '', '/product/42');
    registry.givenRoutes.mockReturnValue({ routes: CART, unavailable: ['mf_catalog'] });
    registry.askRoutesAgain
      .mockResolvedValueOnce({ routes: CART, unavailable: ['mf_catalog'] })
      .mockResolvedValueOnce({ routes: WITH_CATALOG, unavailable: [] });
    render(<App />);

    expect(screen.getByRole('heading', { level: 1, name: 'This part of the shop cannot be reached right now' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();

    // Still unknown: the page stays, and says so.
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('It still cannot be reached. Please try again in a moment.')).toBeTruthy();
    expect(registry.askRoutesAgain).toHaveBeenCalledTimes(1);

    // The catalogue's pages are known again: the router is rebuilt and the product page renders.
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'mf_catalog/Product' })).toBeTruthy();
    expect(registry.askRoutesAgain).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('heading', { name: 'This part of the shop cannot be reached right now' })).toBeNull();
  });

  it('shows the not-found page, unchanged, when every remote’s pages are known', () => {
    setSessionUser(null);
    window.history.replaceState(null, '', '/nothing-here');
    registry.givenRoutes.mockReturnValue({ routes: WITH_CATALOG, unavailable: [] });
    render(<App />);

    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
