import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { formatDate } from '@boatshop/state';
import { $savedSearchList, deleteSavedSearch, fetchSavedSearches } from '../keep/keep';
import '../styles.css';

/** /account/saved-searches: the shopper's saved searches, whether each e-mails new boats, each deletable. */
export default function SavedSearches() {
  const list = useStore($savedSearchList);
  useEffect(() => {
    void fetchSavedSearches();
  }, []);

  return (
    <section className="account-page" aria-labelledby="account-saved-searches-title">
      <h1 id="account-saved-searches-title">Saved searches</h1>
      {list.error ? (
        <p role="alert" className="account-notice account-notice--error">
          {list.error.join(' ')}
        </p>
      ) : null}
      {list.status === 'failed' ? (
        <p role="alert" className="account-notice account-notice--error">
          Your saved searches could not be loaded. Please try again.
        </p>
      ) : list.status === 'ready' && list.items.length === 0 ? (
        <p>
          You have no saved searches yet. Choose filters on the <Link to="/search">search page</Link> and save them.
        </p>
      ) : list.items.length > 0 ? (
        <table className="account-table">
          <thead>
            <tr>
              <th scope="col">Search</th>
              <th scope="col">E-mail alerts</th>
              <th scope="col">Saved</th>
              <th scope="col">Last alert</th>
              <th scope="col">
                <span className="account-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((search) => (
              <tr key={search.id}>
                <td>
                  <Link to={search.path}>{search.name}</Link>
                </td>
                <td>{search.alerts ? 'Daily' : 'Off'}</td>
                <td>{formatDate(search.createdAt)}</td>
                <td>{search.lastAlertedAt ? formatDate(search.lastAlertedAt) : '–'}</td>
                <td>
                  <button
                    type="button"
                    className="bs-button"
                    aria-label={`Delete the saved search ${search.name}`}
                    onClick={() => void deleteSavedSearch(search.id)}
                  >
                    Delete
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
