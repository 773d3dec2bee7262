import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useRoutes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@boatshop/contract';
import { $session, setSessionUser } from '@boatshop/state';
import { routes } from './routes';

// Each remote page renders its own name instead of loading a remote: what is under test is
// which page and guard a path reaches, and which remotes are asked for at all.
const loadRemotePage = vi.hoisted(() => vi.fn(async (remote: string, page: string) => ({ default: () => <h1>{`${remote}/${page}`}</h1> })));
vi.mock('./remotes/registry', () => ({ loadRemotePage }));

const shopper: SessionUser = {
  id: 'u1',
  displayName: 'Sandy Shopper',
  email: 'shopper@example.com',
  userRoles: ['user'],
  emailVerified: true,
  hasPassword: true,
};
const admin: SessionUser = {
  id: 'u2',
  displayName: 'Ada Admin',
  email: 'admin@example.com',
  userRoles: ['user', 'admin'],
  emailVerified: true,
  hasPassword: true,
};

function Routes() {
  return useRoutes(routes);
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes />
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
