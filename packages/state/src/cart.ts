import { persistentJSON } from '@nanostores/persistent';
import { computed } from 'nanostores';
import type { Product } from '@boatshop/contract';

export interface CartItem {
  productId: string;
  name: string;
  thumbnailUrl: string;
  /** integer euro cents, as the API last sent it (on adding, or on `refreshCart`); the API re-checks at payment */
  priceCents: number;
  quantity: number;
}

export type CartProduct = Pick<Product, 'id' | 'name' | 'thumbnailUrl' | 'priceCents'>;

/**
 * The only persisted store (localStorage key `cart`). The library's storage listener keeps
 * every open tab in step.
 */
export const $cart = persistentJSON<CartItem[]>('cart', []);

export const $cartCount = computed($cart, (items) => items.reduce((sum, item) => sum + item.quantity, 0));

export const $cartTotalCents = computed($cart, (items) => items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0));

/** A product already in the cart gains 1; a new one enters with quantity 1. */
export function addToCart(product: CartProduct): void {
  const items = $cart.get();
  if (items.some((item) => item.productId === product.id)) {
    $cart.set(items.map((item) => (item.productId === product.id ? { ...item, quantity: item.quantity + 1 } : item)));
    return;
  }
  $cart.set([
    ...items,
    { productId: product.id, name: product.name, thumbnailUrl: product.thumbnailUrl, priceCents: product.priceCents, quantity: 1 },
  ]);
}

/** Lowers the quantity by 1; a line at quantity 1 leaves the cart. */
export function reduceCartItem(productId: string): void {
  const items = $cart.get();
  $cart.set(
    items.flatMap((item) => (item.productId !== productId ? [item] : item.quantity > 1 ? [{ ...item, quantity: item.quantity - 1 }] : [])),
  );
}

export function removeCartItem(productId: string): void {
  $cart.set($cart.get().filter((item) => item.productId !== productId));
}

export function clearCart(): void {
  $cart.set([]);
}
