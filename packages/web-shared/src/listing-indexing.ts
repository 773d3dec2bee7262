import { SEARCH_URL_FACETS } from '@boatshop/contract/constants';

/**
 * Which catalogue listings a search engine may index (docs/adr/0049): the browse page
 * (/search), each category page (/search/yachts) and each builder page (/search?builder=Name,
 * one builder, no category), each with its pages (`cursor`). Any other choice (a second builder,
 * a builder inside a category, a range, a sort, "Hide sold boats", text) is a filter combination:
 * followed, not indexed, and without a canonical URL. Parameters the listing does not read
 * (utm_*, gclid) change nothing and are left out of the canonical URL. The shell's server writes
 * the head from this on every full load, the shell again after each navigation inside the app.
 */
export type ListingIndexing =
  | { indexable: true; builder: string | null; /** '' or '?builder=…&cursor=…', the canonical URL's query */ canonicalSearch: string }
  | { indexable: false };

/** Parameters that change what a listing shows, besides the facets: text and "Hide sold boats". */
const FILTERS: readonly string[] = [...SEARCH_URL_FACETS, 'q', 'available'];

export const NOINDEX_FOLLOW = 'noindex, follow';

export function listingIndexing(category: string | null, search: URLSearchParams): ListingIndexing {
  const chosen = FILTERS.filter((name) => search.getAll(name).some((value) => value.trim() !== ''));
  const builders = search.getAll('builder').flatMap((value) =>
    value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  const builderPage = category === null && chosen.length === 1 && chosen[0] === 'builder' && builders.length === 1;
  if (chosen.length > 0 && !builderPage) return { indexable: false };
  const canonical = new URLSearchParams();
  if (builderPage) canonical.set('builder', builders[0]!);
  const cursor = search.get('cursor');
  if (cursor) canonical.set('cursor', cursor);
  return { indexable: true, builder: builderPage ? builders[0]! : null, canonicalSearch: canonical.size > 0 ? `?${canonical}` : '' };
}
