import type { Product, ProductPage, SearchFacets } from '@boatshop/contract';
import type { ServerPageData } from '@boatshop/web-shared/server-pages';
import { facetParams, holdSummary } from './catalog/facets';
import { holdListing, listingKey } from './catalog/listing';
import { holdProduct } from './catalog/product';
import { routes } from './routes';

/**
 * The route parameters of `pathname` for the routes of `module` (`./Product`), or null when none
 * matches. The catalogue's paths are static segments and `:name` parameters (one segment each);
 * matched here because the shared react-router (the shell's subset) has no matchPath.
 */
export function paramsOf(module: string, pathname: string): Record<string, string> | null {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  for (const route of routes) {
    if (route.module !== module) continue;
    const pattern = route.path === '/' ? [] : route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index]!;
      if (!part.startsWith(':')) return part === segment;
      if (!segment) return false;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
        return true;
      } catch {
        return false;
      }
    });
    if (matches) return params;
  }
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Sets the page's stores from the data the shell's server read for it (docs/server-rendering.md),
 * on the server before its render and in the browser before hydrating, so both render the same.
 * False when the data does not fit the page at `url` (another shape, a faceted search read without
 * its counts): the page is then not rendered on the server, or not hydrated.
 */
export function holdPageData(module: string, url: string, data: ServerPageData, browser: boolean): boolean {
  const location = new URL(url, 'http://page.invalid');
  const params = paramsOf(module, location.pathname);
  if (!params) return false;
  if (module === './Home') return true;
  if (!data) return false;
  if (module === './Product' && typeof params.productID === 'string') {
    if ('missing' in data && data.missing === true) {
      holdProduct(params.productID, null, browser);
      return true;
    }
    if (!('product' in data) || !isObject(data.product) || typeof data.product.name !== 'string') return false;
    holdProduct(params.productID, data.product as unknown as Product, browser);
    return true;
  }
  if (module === './Search' && 'listing' in data && isObject(data.listing) && Array.isArray(data.listing.data)) {
    const query = location.searchParams;
    const facets = facetParams(query).toString();
    const summary = 'summary' in data && isObject(data.summary) ? data.summary : null;
    const counted = summary !== null && typeof summary.total === 'number' && isObject(summary.facets);
    // A faceted search's list is the search API's answer, which carries its counts: without them
    // it is not that answer (the panel would not ask for them).
    if (facets && !counted) return false;
    const listing = {
      filterType: params.filterType,
      q: query.get('q') ?? '',
      hideSold: query.get('available') === '1',
      cursor: query.get('cursor'),
      facets,
    };
    holdListing(listing, data.listing as unknown as ProductPage);
    // The facet counts came with it when the server read them in time; else the panel asks for them.
    if (counted) holdSummary(listingKey(listing), summary.total as number, summary.facets as unknown as SearchFacets);
    return true;
  }
  return false;
}
