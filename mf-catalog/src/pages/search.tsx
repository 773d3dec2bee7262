import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { NavLink, useParams, useSearchParams } from 'react-router-dom';
import { $listing, leaveListing, listingKey, loadListing, loadMoreProducts, NO_LISTING } from '../catalog/listing';
import { facetParams, LISTING_FORM, searchQueryOf } from '../catalog/facets';
import { ProductCard } from '../components/product-card';
import { SearchFacets } from '../components/search-facets';
import { CompareTray } from '../components/compare-tray';
import { SaveSearch } from '../components/save-search';
import { ReleaseLabel } from '../release-label';
import '../styles.css';
import type { ServerPageData } from '@boatshop/web-shared/server-pages';
import { holdPageData } from '../server-data';

const FILTERS = [
  { label: 'Show all', to: '/search' },
  { label: 'Sailing boats', to: '/search/sailing-boats' },
  { label: 'Yachts', to: '/search/yachts' },
] as const;

/** The URL's search parameters the page keeps across category links and searches: `q` and `available=1`. */
function listingParams(q: string, hideSold: boolean, facets = ''): URLSearchParams {
  const params = new URLSearchParams(facets);
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
  const facets = facetParams(searchParams).toString();
  const [draft, setDraft] = useState(query);

  // The address can change without the form (back button, a category link): the field follows
  // it, set while rendering (as React advises for state that follows a prop).
  const [draftFollows, setDraftFollows] = useState(query);
  if (draftFollows !== query) {
    setDraftFollows(query);
    setDraft(query);
  }

  // The list lives in a store (src/catalog/listing.ts); the page asks for the list its address
  // names and drops it when left. A list held for another query (category, search, filter or
  // start page) reads as loading, so the old list is never painted.
  useEffect(() => {
    void loadListing({ filterType, q: query, hideSold, cursor: startCursor, facets });
    return leaveListing;
  }, [filterType, query, hideSold, startCursor, facets]);
  const held = useStore($listing);
  const listing = held.key === listingKey({ filterType, q: query, hideSold, cursor: startCursor, facets }) ? held : NO_LISTING;

  // The form is a GET form of this page's address (LISTING_FORM): before hydration, and without
  // JavaScript, the browser sends it and the server renders that list; once hydrated, this takes it.
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The field as it is: text typed before hydration is in the field, not yet in `draft`.
    const typed = new FormData(event.currentTarget).get('q');
    setSearchParams(listingParams((typeof typed === 'string' ? typed : draft).trim(), hideSold, facets));
  }

  const kept = listingParams(query, hideSold, facets).toString();
  const keepQuery = kept ? `?${kept}` : '';
  const nextParams = listingParams(query, hideSold, facets);
  nextParams.set('cursor', listing.cursor ?? '');
  const nextPage = `?${nextParams}`;

  return (
    <section className="catalog-page catalog-search-page" aria-labelledby="catalog-search-title">
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
        <form
          id={LISTING_FORM}
          role="search"
          className="catalog-search"
          method="get"
          action={`/search${filterType ? `/${encodeURIComponent(filterType)}` : ''}`}
          // The range fields' ends are the facet's bounds, not steps of their slider: the browser's
          // own check would refuse to send them. The server and the page read whatever is sent.
          noValidate
          data-submit-on-change=""
          onSubmit={submit}
        >
          <label htmlFor="catalog-search-input">Search boats</label>
          <input id="catalog-search-input" type="search" name="q" value={draft} onChange={(event) => setDraft(event.target.value)} />
          <button type="submit" className="catalog-button">
            Search
          </button>
        </form>
        <label className="catalog-hide-sold">
          <input
            type="checkbox"
            name="available"
            value="1"
            form={LISTING_FORM}
            checked={hideSold}
            onChange={(event) => setSearchParams(listingParams(query, event.target.checked, facets))}
          />
          Hide sold boats
        </label>
      </div>
      {/* On a phone the filters come first and are long: one tap down to the boats. */}
      <a className="catalog-skip-to-results" href="#catalog-results">
        Skip to the boats
      </a>
      <SearchFacets />
      <div className="catalog-results" id="catalog-results">
        {listing.status !== 'ready' ? (
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
              // A real link to the next page (rel="next"), so a crawler, a browser without JavaScript
              // and a click before hydration reach the next products (the server renders that page);
              // once hydrated, a click stays on this page and appends them.
              <a
                href={nextPage}
                rel="next"
                className="catalog-button catalog-load-more"
                aria-disabled={listing.loadingMore || undefined}
                onClick={(event) => {
                  event.preventDefault();
                  void loadMoreProducts();
                }}
              >
                Load More
              </a>
            )}
          </>
        )}
        {/* After the results: it appears once the page has hydrated and knows the visitor, and
            must not push down the boats already painted. */}
        <SaveSearch
          query={searchQueryOf(facets, filterType, query, hideSold)}
          suggestedName={[FILTERS.find((filter) => filter.to === `/search${filterType ? `/${filterType}` : ''}`)?.label ?? 'Boats', query]
            .filter(Boolean)
            .join(': ')}
        />
      </div>
      <CompareTray />
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
  return holdPageData('./Search', url, data, true);
}
