import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { act } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { $cart, $session, addToCart, setSessionUser } from '@boatshop/state';
import { Header } from './header';

beforeAll(() => {
  useTestStorageEngine();
});

afterEach(() => {
  cleanup();
  cleanTestStorage();
  $cart.set([]);
  $session.set({ status: 'unknown', user: null });
});

function renderHeader() {
  render(
    <MemoryRouter>
      <Header />
    </MemoryRouter>,
  );
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

describe('header', () => {
  it('offers a visitor Home, Search, register and log in, and no cart or account links', () => {
    setSessionUser(null);
    const nav = renderHeader();

    for (const name of ['Home', 'Search', 'register', 'log in']) expect(nav.getByRole('link', { name })).toBeTruthy();
    expect(nav.queryByRole('link', { name: /your cart/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'My admin' })).toBeNull();
  });

  it('shows a signed-in user the cart count, which follows the shared cart store', () => {
    setSessionUser({
      id: 'u1',
      displayName: 'Sandy Shopper',
      email: 'shopper@example.com',
      userRoles: ['user'],
      emailVerified: true,
      hasPassword: true,
    });
    const nav = renderHeader();
    expect(nav.getByRole('link', { name: 'your cart (0)' }).getAttribute('href')).toBe('/cart');

    act(() => {
      addToCart({ id: 'p1', name: 'Sloop 28', thumbnailUrl: '', priceCents: 100 });
      addToCart({ id: 'p1', name: 'Sloop 28', thumbnailUrl: '', priceCents: 100 });
      addToCart({ id: 'p2', name: 'Ketch 40', thumbnailUrl: '', priceCents: 100 });
    });

    expect(nav.getByRole('link', { name: 'your cart (3)' })).toBeTruthy();
    expect(nav.getByRole('link', { name: 'my account' }).getAttribute('href')).toBe('/dashboard');
    expect(nav.getByRole('button', { name: 'log out' })).toBeTruthy();
    expect(nav.queryByRole('link', { name: 'log in' })).toBeNull();
  });

  it('gives administrators a toolbar with My admin', () => {
    setSessionUser({
      id: 'u2',
      displayName: 'Ada Admin',
      email: 'admin@example.com',
      userRoles: ['user', 'owner'],
      emailVerified: true,
      hasPassword: true,
    });
    renderHeader();

    const toolbar = within(screen.getByRole('navigation', { name: 'Admin toolbar' }));
    expect(toolbar.getByRole('link', { name: 'My admin' }).getAttribute('href')).toBe('/admin');
  });

  it('opens and closes the small-screen menu with its button', () => {
    setSessionUser(null);
    renderHeader();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);

    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('navigation', { name: 'Main' }).id).toBe(button.getAttribute('aria-controls'));
  });
});
