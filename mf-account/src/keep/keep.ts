import { atom } from 'nanostores';
import type { Favourite, SavedSearch } from '@boatshop/contract';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { client } from '../api';
import { messagesOf } from '../identity/identity';

// The shopper's favourites and saved searches (/api/account/favourites, /api/account/saved-searches).

export interface ListState<T> {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  items: T[];
  /** why the last change failed */
  error: string[] | null;
}

export const $favouriteList = atom<ListState<Favourite>>({ status: 'idle', items: [], error: null });
export const $savedSearchList = atom<ListState<SavedSearch>>({ status: 'idle', items: [], error: null });

export async function fetchFavourites(): Promise<void> {
  $favouriteList.set({ ...$favouriteList.get(), status: 'loading' });
  try {
    const { favourites } = await client.request(ROUTE_PATHS.keep.favourites, {});
    $favouriteList.set({ status: 'ready', items: favourites, error: null });
  } catch (error) {
    console.error('Loading favourites failed', error);
    $favouriteList.set({ ...$favouriteList.get(), status: 'failed' });
  }
}

export async function removeFavourite(productId: string): Promise<void> {
  try {
    await client.request(ROUTE_PATHS.keep.removeFavourite, { params: { id: productId } });
    const state = $favouriteList.get();
    $favouriteList.set({ ...state, items: state.items.filter((item) => item.product.id !== productId), error: null });
  } catch (error) {
    console.error('Removing a favourite failed', error);
    $favouriteList.set({ ...$favouriteList.get(), error: messagesOf(error, 'The boat could not be removed. Try again.') });
  }
}

export async function fetchSavedSearches(): Promise<void> {
  $savedSearchList.set({ ...$savedSearchList.get(), status: 'loading' });
  try {
    const { savedSearches } = await client.request(ROUTE_PATHS.keep.savedSearches, {});
    $savedSearchList.set({ status: 'ready', items: savedSearches, error: null });
  } catch (error) {
    console.error('Loading saved searches failed', error);
    $savedSearchList.set({ ...$savedSearchList.get(), status: 'failed' });
  }
}

export async function deleteSavedSearch(id: string): Promise<void> {
  try {
    await client.request(ROUTE_PATHS.keep.removeSavedSearch, { params: { id } });
    const state = $savedSearchList.get();
    $savedSearchList.set({ ...state, items: state.items.filter((item) => item.id !== id), error: null });
  } catch (error) {
    console.error('Deleting a saved search failed', error);
    $savedSearchList.set({ ...$savedSearchList.get(), error: messagesOf(error, 'The search could not be deleted. Try again.') });
  }
}

/** Stops a saved search's alerts with the e-mailed link's token: its name, or the reason it failed. */
export async function unsubscribe(token: string): Promise<{ name: string } | { error: string }> {
  try {
    return await client.request(ROUTE_PATHS.keep.unsubscribe, { query: { token } });
  } catch (error) {
    console.error('Unsubscribing failed', error);
    return { error: messagesOf(error, 'The alerts could not be stopped. Try the link again later.').join(' ') };
  }
}
