import { atom, onMount } from 'nanostores';
import { $cart, type CartItem } from '@boatshop/state';

/** What a cart refresh found, for the shopper to read (in memory only, never persisted). */
export type CartNotice =
  | { kind: 'price-changed'; productId: string; name: string; oldPriceCents: number; newPriceCents: number }
  | { kind: 'no-longer-sold'; productId: string; name: string }
  /** the last unit went to another buyer: the line left the cart */
  | { kind: 'sold'; productId: string; name: string }
  /** held by another open order: the line stays, but cannot be paid for until the hold lapses */
  | { kind: 'reserved'; productId: string; name: string };

/** `failed`: the catalogue could not be asked, so the cart's names and prices are unchecked. */
export type CartRefreshStatus = 'idle' | 'refreshing' | 'refreshed' | 'failed';

export const $cartNotices = atom<CartNotice[]>([]);

export const $cartRefreshStatus = atom<CartRefreshStatus>('idle');

/**
 * Adds what one refresh found to what the shopper has not dismissed yet. A newer notice about a
 * product replaces the older one; two price changes in a row read as one, from the first old
 * price to the latest, and vanish if the price came back to where it was.
 */
export function recordCartNotices(found: CartNotice[]): void {
  if (found.length === 0) return;
  const earlier = $cartNotices.get();
  const merged = found.flatMap((notice): CartNotice[] => {
    const before = earlier.find((item) => item.productId === notice.productId);
    if (notice.kind !== 'price-changed' || before?.kind !== 'price-changed') return [notice];
    return before.oldPriceCents === notice.newPriceCents ? [] : [{ ...notice, oldPriceCents: before.oldPriceCents }];
  });
  const renewed = new Set(found.map((notice) => notice.productId));
  $cartNotices.set([...earlier.filter((notice) => !renewed.has(notice.productId)), ...merged]);
}

/**
 * Forgets the notices of the given kinds (by default a price change or a hold) about the given
 * products, e.g. a hold that lapsed.
 */
export function forgetPriceNotices(
  productIds: readonly string[],
  kinds: readonly CartNotice['kind'][] = ['price-changed', 'reserved'],
): void {
  const gone = new Set(productIds);
  const notices = $cartNotices.get();
  const kept = notices.filter((notice) => !kinds.includes(notice.kind) || !gone.has(notice.productId));
  if (kept.length !== notices.length) $cartNotices.set(kept);
}

/**
 * A line that left the cart (the shopper removed it, here or in another tab, or the cart was
 * emptied) takes its price (or reservation) notice with it, so adding the product again later
 * does not bring back a notice about a line that no longer exists. The shared core's cart actions
 * know nothing of notices: this remote watches the cart while anything reads the notices, and
 * catches up with what changed meanwhile when something starts reading them again.
 */
function forgetNoticesOfLinesGone(items: readonly CartItem[]): void {
  const inCart = new Set(items.map((item) => item.productId));
  const gone = $cartNotices
    .get()
    .filter((notice) => !inCart.has(notice.productId))
    .map((notice) => notice.productId);
  if (gone.length > 0) forgetPriceNotices(gone);
}

onMount($cartNotices, () => {
  forgetNoticesOfLinesGone($cart.get());
  return $cart.listen(forgetNoticesOfLinesGone);
});

/** The shopper has read the notices: forget them, and the message of a failed check. */
export function dismissCartNotices(): void {
  $cartNotices.set([]);
  if ($cartRefreshStatus.get() === 'failed') $cartRefreshStatus.set('idle');
}
