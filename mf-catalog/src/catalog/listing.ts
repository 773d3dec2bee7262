import { atom } from 'nanostores';
import type { Product, ProductPage } from '@boatshop/contract';
import { CATEGORIES, type Category } from '@boatshop/contract/constants';
import { client } from '../api';
import { $searchSummary, searchQueryOf } from './facets';

/** What the search page lists: a category, the search text, "Hide sold boats" and where to start. */
export interface ListingQuery {
  filterType: string | undefined;
  q: string;
  hideSold: boolean;
  /** the cursor of a followed Load More link; null: the first page */
  cursor: string | null;
  /** the address's facet parameters (./facets.ts); empty: the plain list */
  facets?: string;
}

export interface Listing {
  /** the query this list answers, as `listingKey` gives it; null when no list is held */
  key: string | null;
  status: 'idle' | 'loading' | 'ready';
  products: Product[];
  /** where the next page starts (the API's cursor) */
  cursor: string | null;
  isLastPage: boolean;
  loadingMore: boolean;
}

/** No list held: what a page shows as loading. */
export const NO_LISTING: Listing = { key: null, status: 'idle', products: [], cursor: null, isLastPage: true, loadingMore: false };

/** The search page's list (products list: data, paging cursor, isLastPage). */
export const $listing = atom<Listing>(NO_LISTING);

export function listingKey(query: ListingQuery): string {
  return JSON.stringify([query.filterType, query.q, query.hideSold, query.cursor, query.facets ?? '']);
}

const isCategory = (value: string): value is Category => (CATEGORIES as readonly string[]).includes(value);

/** The first page of a category the shop does not have: nothing, as the API would say. */
const NOTHING: ProductPage = { data: [], cursor: null, isLastPage: true };

function fetchPage(query: ListingQuery, cursor: string | null, signal: AbortSignal): Promise<ProductPage> {
  const { filterType } = query;
  // The category comes from the address (/search/:filterType); one the shop does not have lists nothing.
  if (filterType !== undefined && !isCategory(filterType)) return Promise.resolve(NOTHING);
  if (query.facets) return fetchSearchPage(query, cursor, signal);
  return client.products.list(
    { filterType, q: query.q || undefined, available: query.hideSold || undefined, cursor: cursor ?? undefined },
    { signal },
  );
}

/** A page of the faceted search; its counts go to $searchSummary for the facet panel. */
async function fetchSearchPage(query: ListingQuery, cursor: string | null, signal: AbortSignal): Promise<ProductPage> {
  const answer = await client.find.search(
    { ...searchQueryOf(query.facets ?? '', query.filterType, query.q, query.hideSold), cursor: cursor ?? undefined },
    { signal },
  );
  if (!signal.aborted) $searchSummary.set({ key: listingKey(query), total: answer.total, facets: answer.facets });
  return answer;
}

// One list at a time: a new query (or leaving the page) aborts whatever the previous one still
// waits for, so a late answer can never replace or extend the list of another query.
let current: { query: ListingQuery; controller: AbortController } | null = null;

/** The key of the list that came with the page (the server rendered it): its first load asks nothing. */
let given: string | null = null;

/**
 * The first page the shell's server rendered the list with (from the page data block, or on the
 * server itself): held as that render had it, so the page hydrates without a request and Load More
 * goes on from its cursor.
 */
export function holdListing(query: ListingQuery, page: ProductPage): void {
  start(query);
  const key = listingKey(query);
  given = key;
  $listing.set({ key, status: 'ready', products: page.data, cursor: page.cursor, isLastPage: page.isLastPage, loadingMore: false });
}

function start(query: ListingQuery): AbortController {
  current?.controller.abort();
  current = { query, controller: new AbortController() };
  return current.controller;
}

/**
 * Loads the first page of a list (from the query's cursor). A failure is only logged;
 * the shopper sees an empty list.
 */
export async function loadListing(query: ListingQuery): Promise<void> {
  const key = listingKey(query);
  const held = given === key && $listing.get().key === key && current !== null && listingKey(current.query) === key;
  given = null;
  if (held) return;
  const controller = start(query);
  $listing.set({ ...NO_LISTING, key, status: 'loading' });
  try {
    const page = await fetchPage(query, query.cursor, controller.signal);
    if (controller.signal.aborted) return;
    $listing.set({ key, status: 'ready', products: page.data, cursor: page.cursor, isLastPage: page.isLastPage, loadingMore: false });
  } catch (error) {
    if (controller.signal.aborted) return;
    console.error(error);
    $listing.set({ ...NO_LISTING, key, status: 'ready' });
  }
}

/** Load More: appends the next page of the list shown; a failure is only logged and the list stays. */
export async function loadMoreProducts(): Promise<void> {
  const listing = $listing.get();
  if (!current || listing.status !== 'ready' || listing.isLastPage || listing.loadingMore) return;
  const { query, controller } = current;
  $listing.set({ ...listing, loadingMore: true });
  try {
    const page = await fetchPage(query, listing.cursor, controller.signal);
    if (controller.signal.aborted) return;
    const now = $listing.get();
    $listing.set({
      ...now,
      products: [...now.products, ...page.data],
      cursor: page.cursor,
      isLastPage: page.isLastPage,
      loadingMore: false,
    });
  } catch (error) {
    if (controller.signal.aborted) return;
    console.error(error);
    $listing.set({ ...$listing.get(), loadingMore: false });
  }
}

/** Leaving the search page drops its list, so coming back never shows an old one first. */
export function leaveListing(): void {
  current?.controller.abort();
  current = null;
  $listing.set(NO_LISTING);
}
