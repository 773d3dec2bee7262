import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { useHydrated, useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import type { Product } from '@boatshop/contract';
import { $session, type SessionState } from '@boatshop/state';
import { $favourites, loadFavourites, NO_FAVOURITES, setFavourite } from '../keep/favourites';
import './keep.css';

/** The session as the server renders it: nobody signed in (personal state shows once hydrated). */
const SIGNED_OUT: SessionState = { status: 'unknown', user: null };

/**
 * The heart: a toggle button (aria-pressed) that keeps the boat among the signed-in shopper's
 * favourites. The server renders it unpressed and disabled; the shopper's own state shows only
 * after hydration, so no visitor's hearts reach a shared server render. A guest's click invites
 * them to sign in.
 */
export function FavouriteButton({ product }: { product: Pick<Product, 'id' | 'name'> }) {
  const hydrated = useHydrated();
  const session = useStoreAfterHydration($session, SIGNED_OUT);
  const favourites = useStoreAfterHydration($favourites, NO_FAVOURITES);
  const error = useStore($favourites).error;
  const [invited, setInvited] = useState(false);
  const signedIn = session.user !== null;
  const userId = session.user?.id;
  useEffect(() => {
    if (userId) void loadFavourites();
  }, [userId]);
  // Only the signed-in account's own favourites count (a previous account's are never shown).
  const pressed = signedIn && favourites.userId === userId && favourites.ids.has(product.id);

  return (
    <span className="catalog-favourite">
      <button
        type="button"
        className="catalog-favourite__button"
        aria-pressed={pressed}
        aria-label={`Favourite: ${product.name}`}
        disabled={!hydrated || session.status === 'unknown'}
        onClick={() => {
          if (!signedIn) setInvited(true);
          else void setFavourite(product.id, !pressed);
        }}
      >
        <span aria-hidden="true">{pressed ? '♥' : '♡'}</span>
      </button>
      {invited && !signedIn ? (
        <span role="status" className="catalog-favourite__note">
          <Link to="/login">Log in</Link> to keep your favourites.
        </span>
      ) : null}
      {signedIn && error ? (
        <span role="alert" className="catalog-favourite__note">
          {error}
        </span>
      ) : null}
    </span>
  );
}
