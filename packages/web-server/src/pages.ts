import { listingIndexing, type ListingIndexing } from '@boatshop/web-shared/listing-indexing';
import { findRoute, routeKey, type RouteTable } from '@boatshop/web-shared/route-data';

/**
 * The shop's pages as the shell's server sees them: which page a path is, which remote page
 * renders it, and whether search engines may index it. Whether a path is a page at all comes
 * from the route data of the remotes (each remote's src/routes.ts, given per visitor with
 * /remotes.json), the same data the shell builds its router from; what this file adds is what
 * a search engine needs to know about the catalogue's pages.
 */

export const CATEGORIES = [
  { slug: 'sailing-boats', label: 'Sailing boats' },
  { slug: 'yachts', label: 'Yachts' },
] as const;

export type CategorySlug = (typeof CATEGORIES)[number]['slug'];

export type Page =
  | { kind: 'home' }
  | {
      kind: 'search';
      category: (typeof CATEGORIES)[number] | null;
      query: string;
      cursor: string;
      /** whether search engines index this listing, and its canonical query (docs/adr/0049) */
      indexing: ListingIndexing;
    }
  | { kind: 'product'; id: string }
  /** Any other page of a remote (cart, account, sign-in, admin): never indexed. */
  | { kind: 'private'; title: string }
  | { kind: 'not-found' }
  /**
   * A path no known route matches while some remote's route data is not known (that remote
   * unreachable since the server started): it may be one of that remote's pages, so it is not
   * called missing (503 with Retry-After; the shell says this part cannot be reached, with Retry).
   */
  | { kind: 'unavailable' };

/** The remote page that renders a path (for the first-paint hints), or null for none. */
export interface RemotePage {
  /** MF name. */
  remote: string;
  /** The exposed module without its `./` (`Product`). */
  page: string;
}

/** The catalogue's pages a search engine indexes, by route path (routeKey): their head says more. */
const SEO_PAGES: Record<string, 'home' | 'search' | 'browse' | 'product'> = {
  '/': 'home',
  '/search': 'search',
  '/search/:': 'browse',
  '/product/:': 'product',
};

/** A path segment decoded, or null when it is not valid percent-encoding (a 404, not an error). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Which page a path is, for the routes the visitor's shell will have: a path no route claims is
 * not-found, or unavailable when `partlyUnknown` (some remote's route data is not known, so the
 * path may be one of its pages).
 */
export function matchPage(pathname: string, search: URLSearchParams, routes: RouteTable, partlyUnknown = false): Page {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const found = findRoute(routes, path);
  if (!found) return { kind: partlyUnknown ? 'unavailable' : 'not-found' };
  const query = search.get('q')?.trim() ?? '';
  const cursor = search.get('cursor') ?? '';
  const last = decodeSegment(path.slice(path.lastIndexOf('/') + 1));
  switch (SEO_PAGES[routeKey(found.route.path)]) {
    case 'home':
      return { kind: 'home' };
    case 'search':
      return { kind: 'search', category: null, query, cursor, indexing: listingIndexing(null, search) };
    case 'browse': {
      const category = CATEGORIES.find((c) => c.slug === last);
      return category
        ? { kind: 'search', category, query, cursor, indexing: listingIndexing(category.slug, search) }
        : { kind: 'not-found' };
    }
    case 'product':
      return last ? { kind: 'product', id: last } : { kind: 'not-found' };
    default:
      return { kind: 'private', title: found.route.title ?? 'Boat shop' };
  }
}

/**
 * The remote page that renders a path, for the first-paint hints; null for none, and for an
 * `admin` page: nothing of a remote behind the admin guard is hinted to a browser before it
 * has passed it (its manifest is requested only after the guard, shell README).
 */
export function remotePageOf(pathname: string, routes: RouteTable): RemotePage | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const found = findRoute(routes, path);
  if (!found?.route.module || found.route.access === 'admin') return null;
  return { remote: found.remote, page: found.route.module.slice(2) };
}
