import type { Product } from '@boatshop/contract';
import { $cart, type CartItem } from '@boatshop/state';
import { client } from '../api';
import { $cartRefreshStatus, forgetPriceNotices, recordCartNotices, type CartNotice } from './cart-notices';

/**
 * The cart's products as the catalogue sells them now. The contract's client asks in chunks of
 * at most MAX_IDS_PER_REQUEST ids and leaves out ids that are not uuids (a line with another id,
 * from an old or hand-edited localStorage, is no product at all: the API would refuse the whole
 * request for it), so such a line, like an unknown id, is missing from the answer and leaves the
 * cart like an unsold one. The answer's shape is the contract's: the API writes it through the
 * same schema (its response serialiser), so no second check runs here.
 */
async function fetchSold(ids: string[]): Promise<Map<string, Product>> {
  const { data } = await client.products.byIds(ids);
  return new Map(data.map((product) => [product.id, product]));
}

// Each refresh that asks for a new set of ids gets a new generation; only the latest one may
// touch the cart, so an older answer arriving late cannot undo a newer one.
let generation = 0;
let inFlight: { key: string; promise: Promise<void> } | null = null;

async function refresh(ids: string[], own: number): Promise<void> {
  $cartRefreshStatus.set('refreshing');
  let sold: Map<string, Product>;
  try {
    sold = await fetchSold(ids);
  } catch (error) {
    if (own !== generation) return inFlight?.promise;
    // The lines stay as they are: the API prices the cart again at payment anyway.
    console.error('The cart could not be checked against the catalogue', error);
    $cartRefreshStatus.set('failed');
    return;
  }
  // A newer refresh owns the cart now; whoever awaits this one waits for that one instead.
  if (own !== generation) return inFlight?.promise;

  // Applied to the cart as it is now, not as it was when asked: quantities changed meanwhile are
  // kept, lines removed meanwhile stay removed, lines added meanwhile (not asked about) stay.
  const asked = new Set(ids);
  const found: CartNotice[] = [];
  const buyable: string[] = [];
  const items = $cart.get();
  const next = items.flatMap((item): CartItem[] => {
    if (!asked.has(item.productId)) return [item];
    const product = sold.get(item.productId);
    if (!product) {
      found.push({ kind: 'no-longer-sold', productId: item.productId, name: item.name });
      return [];
    }
    // A one-off boat someone else bought leaves the cart; one they hold may come back, so it stays.
    if (product.availability === 'sold_out') {
      found.push({ kind: 'sold', productId: item.productId, name: product.name });
      return [];
    }
    if (product.availability === 'reserved') found.push({ kind: 'reserved', productId: item.productId, name: product.name });
    else buyable.push(item.productId);
    if (product.priceCents !== item.priceCents) {
      found.push({
        kind: 'price-changed',
        productId: item.productId,
        name: product.name,
        oldPriceCents: item.priceCents,
        newPriceCents: product.priceCents,
      });
    }
    return [{ ...item, name: product.name, thumbnailUrl: product.thumbnailUrl, priceCents: product.priceCents }];
  });
  // Unchanged lines are not written back, so other tabs see no storage event for nothing.
  if (JSON.stringify(next) !== JSON.stringify(items)) $cart.set(next);
  // A hold that lapsed takes its notice with it.
  forgetPriceNotices(buyable, ['reserved']);
  recordCartNotices(found);
  $cartRefreshStatus.set('refreshed');
}

/**
 * Brings the cart's names, pictures and unit prices up to the catalogue's, drops the lines whose
 * product is no longer sold or has sold out, notes the ones held by another order, and records a notice for each change (`$cartNotices`). Never
 * rejects: a failed check leaves the cart as it was and sets `$cartRefreshStatus` to `failed`.
 * A call while a refresh of the same products is under way shares it; a call for other products
 * (the cart changed) starts anew and the older answer is ignored.
 */
export function refreshCart(): Promise<void> {
  const ids = [...new Set($cart.get().map((item) => item.productId))];
  const key = [...ids].sort().join(',');
  if (inFlight?.key === key) return inFlight.promise;
  generation += 1;
  const entry = { key, promise: refresh(ids, generation) };
  inFlight = entry;
  void entry.promise.finally(() => {
    if (inFlight === entry) inFlight = null;
  });
  return entry.promise;
}
