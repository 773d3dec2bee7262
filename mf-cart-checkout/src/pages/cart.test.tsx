import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { $cart, $cartCount, addToCart } from '@boatshop/state';
import Cart from './cart';

beforeAll(() => {
  useTestStorageEngine();
});

afterEach(() => {
  cleanup();
  cleanTestStorage();
  $cart.set([]);
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

function renderCart() {
  return render(
    <MemoryRouter initialEntries={['/cart']}>
      <Routes>
        <Route path="/cart" element={<Cart />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

function fillCart() {
  addToCart({ id: 'p1', name: 'Sloop 28', thumbnailUrl: '/api/images/sloop.svg', priceCents: 2_000_000 });
  addToCart({ id: 'p1', name: 'Sloop 28', thumbnailUrl: '/api/images/sloop.svg', priceCents: 2_000_000 });
  addToCart({ id: 'p2', name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', priceCents: 5_000_000 });
}

describe('Cart page', () => {
  it("says 'You cart is empty' when there is nothing in the cart and still offers Continue shopping", () => {
    renderCart();

    expect(screen.getByRole('heading', { name: 'Checkout' })).toBeTruthy();
    expect(screen.getByText('You cart is empty')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue shopping' }));
    expect(screen.getByLabelText('location').textContent).toBe('/search');
  });

  it('lists the lines in a table with the columns the spec names', () => {
    fillCart();
    renderCart();

    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Product', 'Name', 'Quantity', 'Price', 'Remove']);
    const sloop = screen.getAllByRole('row')[1]!;
    expect(within(sloop).getByRole('img', { name: 'Sloop 28' })).toBeTruthy();
    expect(within(sloop).getByText('2')).toBeTruthy();
    // Testing Library folds the non-breaking space before € into a plain one.
    expect(within(sloop).getByText('20.000,00 €')).toBeTruthy();
    expect(screen.getByText('Total: 90.000,00 €')).toBeTruthy();
  });

  it('changes quantities with + and -, drops a line reduced from 1 and removes one with X', () => {
    fillCart();
    renderCart();

    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity of Ketch 40' }));
    expect($cartCount.get()).toBe(4);
    expect(screen.getByText('Total: 140.000,00 €')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity of Sloop 28' }));
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity of Sloop 28' }));
    expect(screen.queryByText('Sloop 28')).toBeNull();
    expect(screen.getByText('Total: 100.000,00 €')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ketch 40' }));
    expect(screen.getByText('You cart is empty')).toBeTruthy();
  });

  it('goes to /payment with Checkout', () => {
    fillCart();
    renderCart();

    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(screen.getByLabelText('location').textContent).toBe('/payment');
  });
});
