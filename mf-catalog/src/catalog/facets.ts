import { atom } from 'nanostores';
import type { SearchFacets, SearchQuery } from '@boatshop/contract';
import { BOAT_CONDITIONS, SEARCH_SORTS, SEARCH_URL_FACETS, type SearchSort, type SearchUrlFacet } from '@boatshop/contract/constants';

// The search page's facet choices live in the address (shareable, the back button undoes a
// choice). Category stays in the path (/search/:filterType), text in `q`, "Hide sold boats" in
// `available=1`; the facets add their own parameters (SEARCH_URL_FACETS). Prices are whole euros in
// the address, "VAT paid" is `vatPaid=1`.

export const FACET_PARAMS = SEARCH_URL_FACETS;
export type FacetParam = SearchUrlFacet;

/**
 * The id of the search page's GET form: the text, "Hide sold boats", the sort and every facet
 * belong to it (the facets through their `form` attribute), so without JavaScript, or before the
 * page has hydrated, choosing and sending gives the address of that choice, which the shell's
 * server renders; once hydrated the page handles each choice itself.
 */
export const LISTING_FORM = 'catalog-listing-form';

/** A list facet's values in an address: `builder=a,b` as the page writes it, or `builder=a&builder=b` as a form sends it. */
export function listValues(params: URLSearchParams, name: 'builder' | 'country'): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

/** The facet parameters of an address, in a fixed order and only those that read as valid. */
export function facetParams(params: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of FACET_PARAMS) {
    const value = name === 'builder' || name === 'country' ? listValues(params, name).join(',') : params.get(name)?.trim();
    if (!value) continue;
    if (name === 'condition' && !(BOAT_CONDITIONS as readonly string[]).includes(value)) continue;
    if (name === 'sort' && (value === 'newest' || !(SEARCH_SORTS as readonly string[]).includes(value))) continue;
    if (name === 'vatPaid' && value !== '1') continue;
    if (/Min$|Max$/.test(name) && !(Number.isFinite(Number(value)) && Number(value) >= 0)) continue;
    kept.set(name, value);
  }
  return kept;
}

/** The API's query for an address's choices. */
export function searchQueryOf(facets: string, filterType: string | undefined, q: string, hideSold: boolean): SearchQuery {
  const params = new URLSearchParams(facets);
  const num = (name: FacetParam) => (params.has(name) ? Number(params.get(name)) : undefined);
  const euros = (name: FacetParam) => (params.has(name) ? Math.round(Number(params.get(name)) * 100) : undefined);
  const query: Record<string, unknown> = {
    category: filterType,
    q: q || undefined,
    builder: params.get('builder') ?? undefined,
    condition: params.get('condition') ?? undefined,
    country: params.get('country') ?? undefined,
    priceMin: euros('priceMin'),
    priceMax: euros('priceMax'),
    lengthMin: num('lengthMin'),
    lengthMax: num('lengthMax'),
    yearMin: num('yearMin'),
    yearMax: num('yearMax'),
    cabinsMin: num('cabinsMin'),
    vatPaid: params.get('vatPaid') === '1' || undefined,
    hideSold: hideSold || undefined,
    sort: (params.get('sort') as SearchSort | null) ?? undefined,
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as SearchQuery;
}

/** The facets and the number of matches for the list on screen (set with each search answer). */
export const $searchSummary = atom<{ key: string | null; total: number; facets: SearchFacets | null }>({
  key: null,
  total: 0,
  facets: null,
});

const LABELS: Record<string, string> = {
  category: 'category',
  builder: 'builder',
  condition: 'condition',
  country: 'country',
  cabins: 'cabins',
};

/**
 * Which single choice to undo for the most results when nothing matches: a list facet's counts
 * ignore its own choice, so their sum is what undoing that choice would show. Null when no
 * list facet helps (then a range is what to widen).
 */
export function filterToRelax(facets: SearchFacets, chosen: { category: boolean; builder: boolean; condition: boolean; country: boolean }) {
  const candidates = (['category', 'builder', 'condition', 'country'] as const)
    .filter((name) => chosen[name])
    .map((name) => ({ name: LABELS[name]!, count: facets[name].reduce((sum, facet) => sum + facet.count, 0) }))
    .filter((candidate) => candidate.count > 0)
    .sort((a, b) => b.count - a.count);
  return candidates[0] ?? null;
}

let summaryController: AbortController | null = null;

/** The key of the counts that came with the page (the server rendered them): their first load asks nothing. */
let givenSummary: string | null = null;

/** The counts the shell's server rendered the page with, held as that render had them. */
export function holdSummary(key: string, total: number, facets: SearchFacets): void {
  summaryController?.abort();
  givenSummary = key;
  $searchSummary.set({ key, total, facets });
}

/**
 * The facet counts for a list that came from the plain list API (no facet chosen yet): one
 * search asking for a single boat, only for its counts.
 */
export async function loadSummary(
  key: string,
  query: SearchQuery,
  search: (query: SearchQuery, signal: AbortSignal) => Promise<{ total: number; facets: SearchFacets }>,
): Promise<void> {
  const held = givenSummary === key && $searchSummary.get().key === key;
  givenSummary = null;
  if (held) return;
  summaryController?.abort();
  const own = new AbortController();
  summaryController = own;
  try {
    const answer = await search({ ...query, limit: 1 }, own.signal);
    if (!own.signal.aborted) $searchSummary.set({ key, total: answer.total, facets: answer.facets });
  } catch (error) {
    if (!own.signal.aborted) console.error(error);
  }
}
