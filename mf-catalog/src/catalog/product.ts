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

/** The id whose product came with the page (the server rendered it): its first load asks nothing. */
let given: string | null = null;

/**
 * The product the shell's server rendered the page with (from the page data block, or on the
 * server itself): held as that render had it, so the page hydrates without a request and without
 * change. In the browser the description is sanitised again right after, and replaced only if
 * that changes it.
 */
export function holdProduct(id: string, product: Product | null, browser: boolean): void {
  controller?.abort();
  controller = null;
  given = id;
  if (!product) {
    $product.set({ id, state: { status: 'missing' } });
    return;
  }
  const safeDescription = product.descriptionHtml ?? '';
  $product.set({ id, state: { status: 'ready', product, safeDescription } });
  if (!browser) return;
  void sanitizeDescription(safeDescription).then(
    (again) => {
      const held = $product.get();
      if (again !== safeDescription && held.id === id && held.state.status === 'ready' && held.state.product === product) {
        $product.set({ id, state: { status: 'ready', product, safeDescription: again } });
      }
    },
    (error: unknown) => console.error(error),
  );
}

/**
 * Loads a product for its page. The server sanitises on write; the browser sanitises again with
 * the same allowlist (../sanitize-description), after the fetch, so a product left meanwhile
 * stays unshown. A 404 (or any failure, which is also logged) is 'missing'.
 */
export async function loadProduct(id: string): Promise<void> {
  const held = given === id && $product.get().id === id;
  given = null;
  if (held) return;
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
