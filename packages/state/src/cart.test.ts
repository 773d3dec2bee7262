import { cleanTestStorage, getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { $cart, $cartCount, $cartTotalCents, addToCart, clearCart, reduceCartItem, removeCartItem } from './cart';

const sloop = {
  id: 'b1c6c1d2-0000-4000-8000-000000000001',
  name: 'Sloop 28',
  thumbnailUrl: '/api/images/sloop.svg',
  priceCents: 2_000_000,
};
const ketch = {
  id: 'b1c6c1d2-0000-4000-8000-000000000002',
  name: 'Ketch 40',
  thumbnailUrl: '/api/images/ketch.svg',
  priceCents: 12_345_678,
};

beforeAll(() => {
  useTestStorageEngine();
});

beforeEach(() => {
  keepMount($cart);
  keepMount($cartCount);
  keepMount($cartTotalCents);
});

afterEach(() => {
  cleanTestStorage();
  cleanStores($cart, $cartCount, $cartTotalCents);
});

describe('cart store', () => {
  it('adds a new product with quantity 1 and the same product again as +1', () => {
    addToCart(sloop);
    addToCart(ketch);
    addToCart(sloop);

    expect($cart.get()).toEqual([
      { productId: sloop.id, name: 'Sloop 28', thumbnailUrl: '/api/images/sloop.svg', priceCents: 2_000_000, quantity: 2 },
      { productId: ketch.id, name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', priceCents: 12_345_678, quantity: 1 },
    ]);
  });

  it('counts quantities and totals integer cents', () => {
    addToCart(sloop);
    addToCart(sloop);
    addToCart(ketch);

    expect($cartCount.get()).toBe(3);
    expect($cartTotalCents.get()).toBe(2 * 2_000_000 + 12_345_678);
  });

  it('lowers a quantity by one and removes a line that was at quantity 1', () => {
    addToCart(sloop);
    addToCart(sloop);
    addToCart(ketch);

    reduceCartItem(sloop.id);
    expect($cart.get().find((item) => item.productId === sloop.id)?.quantity).toBe(1);

    reduceCartItem(ketch.id);
    expect($cart.get().map((item) => item.productId)).toEqual([sloop.id]);
  });

  it('removes a whole line whatever its quantity, and clears the cart', () => {
    addToCart(sloop);
    addToCart(sloop);
    addToCart(ketch);

    removeCartItem(sloop.id);
    expect($cart.get().map((item) => item.productId)).toEqual([ketch.id]);

    clearCart();
    expect($cart.get()).toEqual([]);
    expect($cartCount.get()).toBe(0);
    expect($cartTotalCents.get()).toBe(0);
  });

  it('persists the cart as JSON under the key "cart"', () => {
    addToCart(ketch);

    expect(Object.keys(getTestStorage())).toEqual(['cart']);
    expect(JSON.parse(getTestStorage()['cart'] ?? 'null')).toEqual([
      { productId: ketch.id, name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', priceCents: 12_345_678, quantity: 1 },
    ]);
  });

  it('follows a change made in another tab', () => {
    addToCart(sloop);

    setTestStorageKey('cart', JSON.stringify([{ productId: ketch.id, name: 'Ketch 40', thumbnailUrl: '', priceCents: 100, quantity: 4 }]));

    expect($cartCount.get()).toBe(4);
    expect($cartTotalCents.get()).toBe(400);
  });

  it('starts empty when another tab empties the storage', () => {
    addToCart(sloop);

    setTestStorageKey('cart', undefined);

    expect($cart.get()).toEqual([]);
  });
});
