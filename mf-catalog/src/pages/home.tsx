import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { $session } from '@boatshop/state';
import { ReleaseLabel } from '../release-label';
import '../styles.css';

const TILES = [
  { label: 'Sailing boats', to: '/search/sailing-boats', picture: '/api/images/tile-sailing-boats.svg' },
  { label: 'Yachts', to: '/search/yachts', picture: '/api/images/tile-yachts.svg' },
] as const;

export default function Home() {
  const { user } = useStore($session);
  return (
    <section className="catalog-page catalog-home" aria-labelledby="catalog-home-title">
      <h1 id="catalog-home-title">{user ? `Welcome aboard, ${user.displayName}` : 'Sailing boats and yachts'}</h1>
      <ul className="catalog-tiles">
        {TILES.map((tile) => (
          <li key={tile.to}>
            <Link className="catalog-tile" to={tile.to} style={{ backgroundImage: `url(${tile.picture})` }}>
              <span className="catalog-tile-label">{tile.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <ReleaseLabel />
    </section>
  );
}
