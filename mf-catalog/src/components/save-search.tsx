import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useHydrated, useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import type { SearchQuery } from '@boatshop/contract';
import { CONSENT_WORDING, SAVED_SEARCH_NAME_MAX_LENGTH } from '@boatshop/contract/constants';
import { $session, type SessionState } from '@boatshop/state';
import { saveSearch, savedSearchPath, savedSearchQuery } from '../keep/saved-search';
import './keep.css';

const SIGNED_OUT: SessionState = { status: 'unknown', user: null };

/**
 * "Save this search" under the filters: a signed-in shopper names the current choices and may ask
 * for a daily e-mail of new matching boats (agreeing to the alerts wording); a visitor is invited
 * to log in. Shown only once hydrated: it depends on who is asking.
 */
export function SaveSearch({ query, suggestedName }: { query: SearchQuery; suggestedName: string }) {
  const session = useStoreAfterHydration($session, SIGNED_OUT);
  const hydrated = useHydrated();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(suggestedName);
  const [alerts, setAlerts] = useState(true);
  const [result, setResult] = useState<{ kind: 'saved' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const nameId = useId();

  if (!hydrated || session.status === 'unknown') return null;
  if (!session.user) {
    return (
      <p className="catalog-save-search">
        <Link to="/login">Log in</Link> to save this search and get new matching boats by e-mail.
      </p>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const problem = await saveSearch({
      name: name.trim(),
      path: savedSearchPath(location.pathname, location.search),
      query: savedSearchQuery(query),
      alerts,
    });
    setBusy(false);
    if (problem) setResult({ kind: 'error', text: problem });
    else {
      setResult({ kind: 'saved', text: `Saved “${name.trim()}”.` });
      setOpen(false);
    }
  }

  return (
    <section className="catalog-save-search" aria-label="Save this search">
      {open ? (
        <form onSubmit={(event) => void submit(event)} className="catalog-save-search__form">
          <div className="bs-field">
            <label htmlFor={nameId}>Name of the search</label>
            <input
              id={nameId}
              required
              maxLength={SAVED_SEARCH_NAME_MAX_LENGTH}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <label className="catalog-save-search__alerts">
            <input type="checkbox" checked={alerts} onChange={(event) => setAlerts(event.target.checked)} />
            {CONSENT_WORDING.boat_alerts}
          </label>
          <div className="catalog-save-search__actions">
            <button type="submit" className="catalog-button" disabled={busy || !name.trim()}>
              Save search
            </button>
            <button type="button" className="catalog-link-button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="catalog-button"
          onClick={() => {
            setName(suggestedName);
            setResult(null);
            setOpen(true);
          }}
        >
          Save this search
        </button>
      )}
      <p role="status" className="catalog-save-search__result">
        {result?.kind === 'saved' ? (
          <>
            {result.text} <Link to="/account/saved-searches">Your saved searches</Link>
          </>
        ) : (
          result?.text
        )}
      </p>
    </section>
  );
}
