import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, render, screen } from '@testing-library/react';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { $cart, addToCart } from '@boatshop/state';
import Cart from './cart';

beforeAll(() => {
  useTestStorageEngine();
});

afterEach(() => {
  cleanup();
  cleanTestStorage();
  $cart.set([]);
});

describe('Cart page', () => {
  it("says 'You cart is empty' when there is nothing in the cart", () => {
    render(<Cart />);

    expect(screen.getByRole('heading', { name: 'Checkout' })).toBeTruthy();
    expect(screen.getByText('You cart is empty')).toBeTruthy();
  });

  it('lists the lines of the shared cart store and removes one with its X button', () => {
    addToCart({ id: 'p1', name: 'Sloop 28', thumbnailUrl: '/api/images/sloop.svg', priceCents: 2_000_000 });
    addToCart({ id: 'p1', name: 'Sloop 28', thumbnailUrl: '/api/images/sloop.svg', priceCents: 2_000_000 });
    addToCart({ id: 'p2', name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', priceCents: 5_000_000 });
    render(<Cart />);

    // Testing Library folds the non-breaking space before € into a plain one.
    expect(screen.getByText('Total: 90.000,00 €')).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Remove Sloop 28' }).click());

    expect(screen.queryByText(/Sloop 28/)).toBeNull();
    expect($cart.get().map((item) => item.productId)).toEqual(['p2']);
    expect(screen.getByText('Total: 50.000,00 €')).toBeTruthy();
  });
});
