import { useStore } from '@nanostores/react';
import { $cart, $cartTotalCents, formatPrice, removeCartItem } from '@boatshop/state';
import '../styles.css';

/**
 * Placeholder until the cart issue brings the table (Product, Name, Quantity, Price, Remove)
 * with - and + buttons and the Continue shopping and Checkout buttons. The lines, their
 * removal and the total are already the real cart store.
 */
export default function Cart() {
  const items = useStore($cart);
  const totalCents = useStore($cartTotalCents);
  return (
    <section className="checkout-page" aria-labelledby="checkout-cart-title">
      <h1 id="checkout-cart-title">Checkout</h1>
      {items.length === 0 ? (
        <p>You cart is empty</p>
      ) : (
        <>
          <ul className="checkout-lines">
            {items.map((item) => (
              <li key={item.productId}>
                {item.name} × {item.quantity}{' '}
                <button type="button" aria-label={`Remove ${item.name}`} onClick={() => removeCartItem(item.productId)}>
                  X
                </button>
              </li>
            ))}
          </ul>
          <p>Total: {formatPrice(totalCents)}</p>
        </>
      )}
    </section>
  );
}
