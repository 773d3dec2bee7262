import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { CATEGORIES } from '@boatshop/contract/constants';
import { listingIndexing, NOINDEX_FOLLOW } from '@boatshop/web-shared/listing-indexing';

/** The title of the build's index.html; the server writes each page's own on a full load. */
export const SHOP_TITLE = 'Boat shop: sailing boats and yachts';

function headElement<T extends HTMLElement>(selector: string, create: () => T): T {
  return document.head.querySelector<T>(selector) ?? document.head.appendChild(create());
}

/**
 * The robots rule and canonical link of the page at `pathname` + `search`, as the shell's server
 * writes them (docs/adr/0049): a catalogue listing gets its own (a filter combination noindex,
 * follow and no canonical link); any other page loses the ones the landing page had, which
 * would describe the page left behind.
 */
export function writeIndexingHead(pathname: string, search: string, origin: string): void {
  const match = /^\/search(?:\/([^/]+))?\/?$/.exec(pathname);
  const category = match?.[1] ? decodeURIComponent(match[1]) : null;
  const listing = match && (category === null || (CATEGORIES as readonly string[]).includes(category));
  const params = new URLSearchParams(search);
  const indexing = listing && !params.get('q')?.trim() ? listingIndexing(category, params) : null;
  const robots = document.head.querySelector('meta[name="robots"]');
  const canonical = document.head.querySelector('link[rel="canonical"]');
  if (listing && !indexing?.indexable) {
    headElement('meta[name="robots"]', () => Object.assign(document.createElement('meta'), { name: 'robots' })).content = NOINDEX_FOLLOW;
    canonical?.remove();
  } else if (indexing?.indexable) {
    robots?.remove();
    const path = category ? `/search/${encodeURIComponent(category)}` : '/search';
    headElement('link[rel="canonical"]', () => Object.assign(document.createElement('link'), { rel: 'canonical' })).href =
      `${origin}${path}${indexing.canonicalSearch}`;
  } else {
    robots?.remove();
    canonical?.remove();
  }
}

/**
 * The shell's server gives each page its head (a product's name, "Your cart", its robots rule and
 * canonical URL); after a navigation inside the app the title goes back to the shop's, and the
 * robots rule and canonical link follow the new address, facet choices included.
 */
export function usePageHeadAfterNavigation(): void {
  const { pathname, search } = useLocation();
  const landedOn = useRef<{ pathname: string; search: string } | null>({ pathname, search });
  useEffect(() => {
    const landed = landedOn.current;
    if (landed && landed.pathname === pathname && landed.search === search) return;
    landedOn.current = null;
    if (!landed || landed.pathname !== pathname) document.title = SHOP_TITLE;
    writeIndexingHead(pathname, search, window.location.origin);
  }, [pathname, search]);
}
