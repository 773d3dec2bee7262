import { useHydrated, useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import { useNavigate } from 'react-router-dom';
import type { Product } from '@boatshop/contract';
import { $cart, addToCart, type CartItem } from '@boatshop/state';
import { canAddToCart } from './availability';

/** The cart as the server renders it: empty (the visitor's cart is drawn once the page has hydrated). */
const NO_ITEMS: CartItem[] = [];

/**
 * 'Add to cart': one more of the product in the shared cart, then the cart page.
 * Disabled for a boat that is sold or reserved, or whose units left are all in the cart already.
 */
export function AddToCartButton({ product }: { product: Product }) {
  const navigate = useNavigate();
  // Disabled in the server's HTML until the page is hydrated: a click before then would do nothing.
  const hydrated = useHydrated();
  const inCart = useStoreAfterHydration($cart, NO_ITEMS).find((item) => item.productId === product.id)?.quantity ?? 0;
  return (
    <button
      type="button"
      className="catalog-button catalog-add-to-cart"
      disabled={!hydrated || !canAddToCart(product, inCart)}
      onClick={() => {
        addToCart(product);
        navigate('/cart');
      }}
    >
      Add to cart
    </button>
  );
}
