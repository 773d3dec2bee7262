import { useEffect, useState, type FormEvent } from 'react';
import { NavLink, useParams, useSearchParams } from 'react-router-dom';
import { api, type Product, type ProductPage } from '@boatshop/state';
import { ProductCard } from '../components/product-card';
import { ReleaseLabel } from '../release-label';
import '../styles.css';

const FILTERS = [
  { label: 'Show all', to: '/search' },
  { label: 'Sailing boats', to: '/search/sailing-boats' },
  { label: 'Yachts', to: '/search/yachts' },
] as const;

interface Listing {
  status: 'loading' | 'ready';
  products: Product[];
  cursor: string | null;
  isLastPage: boolean;
}

const LOADING: Listing = { status: 'loading', products: [], cursor: null, isLastPage: true };

function fetchPage(filterType: string | undefined, q: string, hideSold: boolean, cursor: string | null, signal?: AbortSignal) {
  return api.get<ProductPage>('/products', {
    query: { filterType, q: q || undefined, available: hideSold ? 'true' : undefined, cursor },
    signal,
  });
}

/** The URL's search parameters the page keeps across category links and searches: `q` and `available=1`. */
function listingParams(q: string, hideSold: boolean): URLSearchParams {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (hideSold) params.set('available', '1');
  return params;
}

export default function Search() {
  const { filterType } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.get('q') ?? '';
  // "Hide sold boats" lives in the URL, so the filtered list can be shared and survives a reload.
  const hideSold = searchParams.get('available') === '1';
  // Where a crawler (or a shared link) following "Load More" starts: that page of the list.
  const startCursor = searchParams.get('cursor');
  const [listing, setListing] = useState<Listing>(LOADING);
  const [draft, setDraft] = useState(query);
  const [loadingMore, setLoadingMore] = useState(false);

  // The address can change without the form (back button, a category link): the field follows
  // it, set while rendering (as React advises for state that follows a prop).
  const [draftFollows, setDraftFollows] = useState(query);
  if (draftFollows !== query) {
    setDraftFollows(query);
    setDraft(query);
  }

  // Another list (category, search, filter or start page) starts from "loading", set while
  // rendering (as React advises for state that follows a prop), so the old list is never painted.
  const listingKey = JSON.stringify([filterType, query, hideSold, startCursor]);
  const [listingFor, setListingFor] = useState(listingKey);
  if (listingFor !== listingKey) {
    setListingFor(listingKey);
    setListing(LOADING);
  }

  useEffect(() => {
    const controller = new AbortController();
    fetchPage(filterType, query, hideSold, startCursor, controller.signal).then(
      (page) => setListing({ status: 'ready', products: page.data, cursor: page.cursor, isLastPage: page.isLastPage }),
      (error: unknown) => {
        // SPEC §9: product failures are only logged; the shopper sees an empty list.
        if (!controller.signal.aborted) {
          console.error(error);
          setListing({ status: 'ready', products: [], cursor: null, isLastPage: true });
        }
      },
    );
    return () => controller.abort();
  }, [filterType, query, hideSold, startCursor]);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await fetchPage(filterType, query, hideSold, listing.cursor);
      setListing((current) => ({
        status: 'ready',
        products: [...current.products, ...page.data],
        cursor: page.cursor,
        isLastPage: page.isLastPage,
      }));
    } catch (error) {
      console.error(error);
    } finally {
      setLoadingMore(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearchParams(listingParams(draft.trim(), hideSold));
  }

  const kept = listingParams(query, hideSold).toString();
  const keepQuery = kept ? `?${kept}` : '';
  const nextParams = listingParams(query, hideSold);
  nextParams.set('cursor', listing.cursor ?? '');
  const nextPage = `?${nextParams}`;

  return (
    <section className="catalog-page" aria-labelledby="catalog-search-title">
      <h1 id="catalog-search-title">Browse products</h1>
      <div className="catalog-toolbar">
        <nav aria-label="Category">
          <ul className="catalog-filters">
            {FILTERS.map((filter) => (
              <li key={filter.to}>
                <NavLink end className="catalog-filter" to={`${filter.to}${keepQuery}`}>
                  {filter.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <form role="search" className="catalog-search" onSubmit={submit}>
          <label htmlFor="catalog-search-input">Search boats</label>
          <input id="catalog-search-input" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
          <button type="submit" className="catalog-button">
            Search
          </button>
        </form>
        <label className="catalog-hide-sold">
          <input type="checkbox" checked={hideSold} onChange={(event) => setSearchParams(listingParams(query, event.target.checked))} />
          Hide sold boats
        </label>
      </div>
      {listing.status === 'loading' ? (
        <p aria-live="polite">Loading…</p>
      ) : listing.products.length === 0 ? (
        <p>No search results.</p>
      ) : (
        <>
          <ul className="catalog-grid">
            {listing.products.map((product, index) => (
              <ProductCard key={product.id} product={product} eager={index < 3} first={index === 0} />
            ))}
          </ul>
          {listing.isLastPage ? null : (
            // A real link to the next page (rel="next"), so a crawler reaches every product; a
            // shopper's click stays on this page and appends the next products, as before.
            <a
              href={nextPage}
              rel="next"
              className="catalog-button catalog-load-more"
              aria-disabled={loadingMore || undefined}
              onClick={(event) => {
                event.preventDefault();
                if (!loadingMore) void loadMore();
              }}
            >
              Load More
            </a>
          )}
        </>
      )}
      <ReleaseLabel />
    </section>
  );
}
