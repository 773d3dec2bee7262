import { useNavigate } from 'react-router-dom';
import { addToCart, type Product } from '@boatshop/state';

/** 'Add to cart' (SPEC §3): one more of the product in the shared cart, then the cart page. */
export function AddToCartButton({ product }: { product: Product }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="catalog-button"
      onClick={() => {
        addToCart(product);
        navigate('/cart');
      }}
    >
      Add to cart
    </button>
  );
}
