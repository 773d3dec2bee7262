import { useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import { Link } from 'react-router-dom';
import { $session, type SessionState } from '@boatshop/state';
import { ReleaseLabel } from '../release-label';
import '../styles.css';
import type { ServerPageData } from '@boatshop/web-shared/server-pages';
import { holdPageData } from '../server-data';

/** The session as the server renders it: nobody signed in (the name shows once the page has hydrated). */
const SIGNED_OUT: SessionState = { status: 'unknown', user: null };

const TILES = [
  { label: 'Sailing boats', to: '/search/sailing-boats', picture: '/api/images/tile-sailing-boats.svg' },
  { label: 'Yachts', to: '/search/yachts', picture: '/api/images/tile-yachts.svg' },
] as const;

export default function Home() {
  const { user } = useStoreAfterHydration($session, SIGNED_OUT);
  return (
    <section className="catalog-page catalog-home" aria-labelledby="catalog-home-title">
      <h1 id="catalog-home-title">{user ? `Welcome aboard, ${user.displayName}` : 'Sailing boats and yachts'}</h1>
      <ul className="catalog-tiles">
        {TILES.map((tile) => (
          <li key={tile.to}>
            {/* The picture is an element, not an inline style: the page's CSP refuses style attributes in the server's HTML. */}
            <Link className="catalog-tile" to={tile.to}>
              <img className="catalog-tile-picture" src={tile.picture} alt="" width={800} height={600} />
              <span className="catalog-tile-label">{tile.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <ReleaseLabel />
    </section>
  );
}

/**
 * The shell calls this before hydrating the server's render of this page, with the data the
 * server rendered it from (the page data block): false when the data does not fit the page, and
 * the shell renders it from scratch instead.
 */
export function hydrateWith(url: string, data: ServerPageData): boolean {
  return holdPageData('./Home', url, data, true);
}
