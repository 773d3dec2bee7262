import { useStore } from '@nanostores/react';
import { $session } from '@boatshop/state';
import '../styles.css';

/** Placeholder until the admin issue brings the product list and the Add new product modal. */
export default function Admin() {
  const { user } = useStore($session);
  return (
    <section className="admin-page" aria-labelledby="admin-title">
      <h1 id="admin-title">Manage products</h1>
      {user ? <p>Signed in as {user.displayName}</p> : null}
    </section>
  );
}
