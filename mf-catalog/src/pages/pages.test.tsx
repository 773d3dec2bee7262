import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { setSessionUser } from '@boatshop/state';
import Home from './home';
import Product from './product';
import Search from './search';

afterEach(() => {
  cleanup();
  setSessionUser(null);
});

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/" element={<Home />} />
        <Route path="/search" element={<Search />} />
        <Route path="/search/:filterType" element={<Search />} />
        <Route path="/product/:productID" element={<Product />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('catalog pages', () => {
  it('welcome a signed-in shopper by name from the shared session store', () => {
    setSessionUser({ id: 'u1', displayName: 'Sandy Shopper', email: 'shopper@example.com', userRoles: ['user'] });
    renderAt('/');

    expect(screen.getByRole('heading', { name: 'Welcome aboard, Sandy Shopper' })).toBeTruthy();
  });

  it("read the category and the search text from the shell's route", () => {
    renderAt('/search/yachts?q=teak');

    expect(screen.getByRole('heading', { name: 'Browse products' })).toBeTruthy();
    expect(screen.getByText('Category: yachts')).toBeTruthy();
    expect(screen.getByText('Search: teak')).toBeTruthy();
  });

  it('read the product ID from the route', () => {
    renderAt('/product/42');

    expect(screen.getByText('Product ID: 42')).toBeTruthy();
  });
});
