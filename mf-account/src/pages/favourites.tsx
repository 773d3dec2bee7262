import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { formatDate, formatPrice } from '@boatshop/state';
import { $favouriteList, fetchFavourites, removeFavourite } from '../keep/keep';
import '../styles.css';

/** /account/favourites: the boats the shopper keeps, the newest first, each removable. */
export default function Favourites() {
  const list = useStore($favouriteList);
  useEffect(() => {
    void fetchFavourites();
  }, []);

  return (
    <section className="account-page" aria-labelledby="account-favourites-title">
      <h1 id="account-favourites-title">Favourites</h1>
      {list.error ? (
        <p role="alert" className="account-notice account-notice--error">
          {list.error.join(' ')}
        </p>
      ) : null}
      {list.status === 'failed' ? (
        <p role="alert" className="account-notice account-notice--error">
          Your favourites could not be loaded. Please try again.
        </p>
      ) : list.status === 'ready' && list.items.length === 0 ? (
        <p>
          You keep no favourites yet. Tap the heart on any boat in the <Link to="/search">catalogue</Link>.
        </p>
      ) : list.items.length > 0 ? (
        <table className="account-table">
          <thead>
            <tr>
              <th scope="col">Boat</th>
              <th scope="col">Price</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="account-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map(({ product, addedAt }) => (
              <tr key={product.id}>
                <td>
                  <Link to={`/product/${product.id}`}>{product.name}</Link>
                  {product.availability === 'sold_out' ? ' (sold)' : null}
                </td>
                <td>{formatPrice(product.priceCents)}</td>
                <td>{formatDate(addedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="bs-button"
                    aria-label={`Remove ${product.name} from favourites`}
                    onClick={() => void removeFavourite(product.id)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="account-muted" role="status">
          Loading…
        </p>
      )}
    </section>
  );
}
