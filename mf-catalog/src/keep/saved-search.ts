import type { SavedSearchQuery, SearchQuery } from '@boatshop/contract';
import { isApiError, ROUTE_PATHS } from '@boatshop/contract/client';
import { client } from '../api';

/** A saved search's choices: the search's query without its order and paging. */
export function savedSearchQuery(query: SearchQuery): SavedSearchQuery {
  const { sort: _sort, cursor: _cursor, limit: _limit, ...choices } = query;
  return choices;
}

/** The search page's address to come back to: its path and choices, without a page cursor. */
export function savedSearchPath(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('cursor');
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}`;
}

/** Saves the search; null when saved, else the reason in words. */
export async function saveSearch(body: { name: string; path: string; query: SavedSearchQuery; alerts: boolean }): Promise<string | null> {
  try {
    await client.request(ROUTE_PATHS.keep.saveSearch, { body });
    return null;
  } catch (error) {
    console.error('Saving the search failed', error);
    return isApiError(error) ? error.message : 'The search could not be saved. Try again.';
  }
}
