import { useStore } from '@nanostores/react';
import { $session } from '@boatshop/state';
import '../styles.css';

/** Placeholder until the orders issue brings the order history table (Order Date, Order ID, Amount). */
export default function Dashboard() {
  const { user } = useStore($session);
  return (
    <section className="account-page" aria-labelledby="account-dashboard-title">
      <h1 id="account-dashboard-title">Order history</h1>
      {user ? <p>Signed in as {user.displayName}</p> : null}
    </section>
  );
}
