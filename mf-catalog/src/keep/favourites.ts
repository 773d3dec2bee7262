import { atom } from 'nanostores';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { $session } from '@boatshop/state';
import { client } from '../api';

// The signed-in shopper's favourite boats, as the hearts on cards and the product page show them.
// Loaded once per signed-in account (the hearts read them only while `userId` is the session's, so
// another account's never show); a heart changes at once and goes back if the API refuses. No
// module-level subscription: the server build is evaluated per render against the server's one
// `$session`, where a listener would pile up.

export interface FavouritesState {
  /** whose favourites these are: null for a visitor, or before the first load */
  userId: string | null;
  ids: ReadonlySet<string>;
  /** why the last change failed, for the heart's status line */
  error: string | null;
}

export const NO_FAVOURITES: FavouritesState = { userId: null, ids: new Set(), error: null };

export const $favourites = atom<FavouritesState>(NO_FAVOURITES);

let loading: { userId: string; promise: Promise<void> } | null = null;

/** The signed-in shopper's favourites, asked for once per account (every heart on a page calls this). */
export function loadFavourites(): Promise<void> {
  const userId = $session.get().user?.id ?? null;
  if (!userId) {
    if ($favourites.get().userId !== null) $favourites.set(NO_FAVOURITES);
    return Promise.resolve();
  }
  if ($favourites.get().userId === userId) return Promise.resolve();
  if (loading?.userId === userId) return loading.promise;
  const promise = client
    .request(ROUTE_PATHS.keep.favouriteIds, {})
    .then(
      ({ productIds }) => {
        if ($session.get().user?.id === userId) $favourites.set({ userId, ids: new Set(productIds), error: null });
      },
      (error: unknown) => console.error('Loading favourites failed', error),
    )
    .finally(() => {
      loading = null;
    });
  loading = { userId, promise };
  return promise;
}

function withId(ids: ReadonlySet<string>, id: string, kept: boolean): Set<string> {
  const next = new Set(ids);
  if (kept) next.add(id);
  else next.delete(id);
  return next;
}

/** Keeps or forgets a boat; the heart follows at once, and goes back if the API refuses. */
export async function setFavourite(productId: string, kept: boolean): Promise<void> {
  const before = $favourites.get();
  $favourites.set({ ...before, ids: withId(before.ids, productId, kept), error: null });
  try {
    if (kept) await client.request(ROUTE_PATHS.keep.addFavourite, { params: { id: productId } });
    else await client.request(ROUTE_PATHS.keep.removeFavourite, { params: { id: productId } });
  } catch (error) {
    console.error('Changing a favourite failed', error);
    const now = $favourites.get();
    $favourites.set({
      ...now,
      ids: withId(now.ids, productId, !kept),
      error: kept ? 'This boat could not be added to your favourites.' : 'This boat could not be removed from your favourites.',
    });
  }
}
