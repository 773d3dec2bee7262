import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { useNavigate } from 'react-router-dom';
import { $cart, $cartTotalCents, addToCart, formatPrice, reduceCartItem, removeCartItem } from '@boatshop/state';
import { refreshCart } from '../cart/cart-refresh';
import { CartNotices } from '../components/cart-notices';
import '../styles.css';
import './cart.css';

export default function Cart() {
  const items = useStore($cart);
  const totalCents = useStore($cartTotalCents);
  const navigate = useNavigate();

  // Each time the cart is shown it takes the catalogue's current names and prices; the table
  // stays usable meanwhile and simply updates when the answer comes.
  useEffect(() => {
    void refreshCart();
  }, []);

  return (
    <section className="checkout-page" aria-labelledby="checkout-cart-title">
      <h1 id="checkout-cart-title">Checkout</h1>
      <CartNotices />
      {items.length === 0 ? (
        <p>You cart is empty</p>
      ) : (
        <>
          {/* Narrow screens scroll the table sideways rather than squeezing the quantity buttons. */}
          <div className="checkout-cart-scroll">
            <table className="checkout-cart-table">
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Name</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Price</th>
                  <th scope="col">Remove</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.productId}>
                    <td>
                      <img src={item.thumbnailUrl} alt={item.name} width={96} height={72} />
                    </td>
                    <td>{item.name}</td>
                    <td>
                      <div className="checkout-cart-quantity">
                        <button
                          type="button"
                          className="checkout-cart-step"
                          aria-label={`Decrease quantity of ${item.name}`}
                          onClick={() => reduceCartItem(item.productId)}
                        >
                          -
                        </button>
                        <span>{item.quantity}</span>
                        <button
                          type="button"
                          className="checkout-cart-step"
                          aria-label={`Increase quantity of ${item.name}`}
                          onClick={() =>
                            addToCart({ id: item.productId, name: item.name, thumbnailUrl: item.thumbnailUrl, priceCents: item.priceCents })
                          }
                        >
                          +
                        </button>
                      </div>
                    </td>
                    <td>{formatPrice(item.priceCents)}</td>
                    <td>
                      <button
                        type="button"
                        className="checkout-cart-step"
                        aria-label={`Remove ${item.name}`}
                        onClick={() => removeCartItem(item.productId)}
                      >
                        X
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="checkout-cart-total">Total: {formatPrice(totalCents)}</p>
        </>
      )}
      <div className="checkout-cart-actions">
        <button type="button" className="checkout-cart-secondary" onClick={() => navigate('/search')}>
          Continue shopping
        </button>
        {items.length === 0 ? null : (
          <button type="button" className="checkout-cart-primary" onClick={() => navigate('/payment')}>
            Checkout
          </button>
        )}
      </div>
    </section>
  );
}
