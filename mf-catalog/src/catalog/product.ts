import { atom } from 'nanostores';
import type { Product } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { client } from '../api';
import { preloadSanitizer, sanitizeDescription } from '../sanitize-description';

export type ProductState =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'ready'; product: Product; /** sanitised again in the browser */ safeDescription: string };

/** The product page's product (the selected product), with the id it belongs to. */
export const $product = atom<{ id: string | null; state: ProductState }>({ id: null, state: { status: 'loading' } });

let controller: AbortController | null = null;

/**
 * Loads a product for its page. The server sanitises on write; the browser sanitises again with
 * the same allowlist (../sanitize-description), after the fetch, so a product left meanwhile
 * stays unshown. A 404 (or any failure, which is also logged) is 'missing'.
 */
export async function loadProduct(id: string): Promise<void> {
  controller?.abort();
  const own = new AbortController();
  controller = own;
  $product.set({ id, state: { status: 'loading' } });
  preloadSanitizer();
  try {
    const product = await client.products.get(id, { signal: own.signal });
    const safeDescription = await sanitizeDescription(product.descriptionHtml);
    if (!own.signal.aborted) $product.set({ id, state: { status: 'ready', product, safeDescription } });
  } catch (error) {
    if (own.signal.aborted) return;
    if (!(isApiError(error) && error.status === 404)) console.error(error);
    $product.set({ id, state: { status: 'missing' } });
  }
}

/** The product page clears the current product when left. */
export function leaveProduct(): void {
  controller?.abort();
  controller = null;
  $product.set({ id: null, state: { status: 'loading' } });
}
