import { atom } from 'nanostores';
import type { Product, ProductInput, ProductPage } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { checkSession } from '@boatshop/state';
import { client } from '../api';

export const ADMIN_PAGE_SIZE = 10;

export interface AdminProductsState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  products: Product[];
  cursor: string | null;
  isLastPage: boolean;
  loadingMore: boolean;
  /** Why the last list request failed, for the page to show; null when it did not. */
  error: string | null;
}

const INITIAL: AdminProductsState = {
  status: 'idle',
  products: [],
  cursor: null,
  isLastPage: true,
  loadingMore: false,
  error: null,
};

/** The catalogue as the admin page lists it: newest first, grown a page at a time. */
export const $adminProducts = atom<AdminProductsState>(INITIAL);

/**
 * A 401 or 403 means the session ended or the admin role was taken away since the shell let
 * the admin in: asking again updates the shared session store, and the shell's guard then
 * sends the browser to /login.
 */
function recheckSessionOn(error: unknown): void {
  if (isApiError(error) && (error.status === 401 || error.status === 403)) void checkSession();
}

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;
}

function fetchPage(cursor: string | null): Promise<ProductPage> {
  return client.admin.products.list({ limit: ADMIN_PAGE_SIZE, cursor: cursor ?? undefined });
}

export async function loadAdminProducts(): Promise<void> {
  $adminProducts.set({ ...INITIAL, status: 'loading' });
  try {
    const page = await fetchPage(null);
    $adminProducts.set({ ...INITIAL, status: 'ready', products: page.data, cursor: page.cursor, isLastPage: page.isLastPage });
  } catch (error) {
    recheckSessionOn(error);
    $adminProducts.set({ ...INITIAL, status: 'failed', error: messageOf(error, 'The products could not be loaded.') });
  }
}

export async function loadMoreAdminProducts(): Promise<void> {
  const state = $adminProducts.get();
  if (state.loadingMore || state.isLastPage || state.cursor === null) return;
  $adminProducts.set({ ...state, loadingMore: true, error: null });
  try {
    const page = await fetchPage(state.cursor);
    const current = $adminProducts.get();
    // Rows added here meanwhile are already in the list; a cursor page never repeats older rows.
    const known = new Set(current.products.map((product) => product.id));
    $adminProducts.set({
      ...current,
      products: [...current.products, ...page.data.filter((product) => !known.has(product.id))],
      cursor: page.cursor,
      isLastPage: page.isLastPage,
      loadingMore: false,
    });
  } catch (error) {
    recheckSessionOn(error);
    $adminProducts.set({ ...$adminProducts.get(), loadingMore: false, error: messageOf(error, 'More products could not be loaded.') });
  }
}

/**
 * Adds a product (it goes to the top of the list, as the newest) or replaces one in place.
 * Rejects with the API's ApiError, whose `details` list what to correct.
 */
export async function saveProduct(input: ProductInput, id?: string): Promise<Product> {
  try {
    const saved = id ? await client.admin.products.update(id, input) : await client.admin.products.create(input);
    const state = $adminProducts.get();
    $adminProducts.set({
      ...state,
      products: id ? state.products.map((product) => (product.id === id ? saved : product)) : [saved, ...state.products],
    });
    return saved;
  } catch (error) {
    recheckSessionOn(error);
    throw error;
  }
}

/** Deletes for real; a product someone else deleted already is gone all the same. */
export async function deleteProduct(id: string): Promise<void> {
  try {
    await client.admin.products.remove(id);
  } catch (error) {
    recheckSessionOn(error);
    if (!(isApiError(error) && error.status === 404)) throw error;
  }
  const state = $adminProducts.get();
  $adminProducts.set({ ...state, products: state.products.filter((product) => product.id !== id) });
}
