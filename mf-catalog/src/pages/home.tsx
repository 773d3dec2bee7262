import { useStore } from '@nanostores/react';
import { $session } from '@boatshop/state';
import { ReleaseLabel } from '../release-label';
import '../styles.css';

/** Placeholder until the catalog issue: the category tiles come here. */
export default function Home() {
  const { user } = useStore($session);
  return (
    <section className="catalog-page catalog-home" aria-labelledby="catalog-home-title">
      <h1 id="catalog-home-title">{user ? `Welcome aboard, ${user.displayName}` : 'Sailing boats and yachts'}</h1>
      <ReleaseLabel />
    </section>
  );
}
