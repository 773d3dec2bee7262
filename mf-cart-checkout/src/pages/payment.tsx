import { useStore } from '@nanostores/react';
import { $cartTotalCents, formatPrice } from '@boatshop/state';
import '../styles.css';

/** Placeholder until the checkout issue brings the address groups, card entry and Pay now. */
export default function Payment() {
  const totalCents = useStore($cartTotalCents);
  return (
    <section className="checkout-page" aria-labelledby="checkout-payment-title">
      <h1 id="checkout-payment-title">Payment</h1>
      <p>Amount to pay: {formatPrice(totalCents)}</p>
    </section>
  );
}
