import { useParams } from 'react-router-dom';
import '../styles.css';

/** Placeholder until the orders issue brings the items table and the total. */
export default function Order() {
  const { orderID } = useParams();
  return (
    <section className="account-page" aria-labelledby="account-order-title">
      <h1 id="account-order-title">Order {orderID}</h1>
    </section>
  );
}
