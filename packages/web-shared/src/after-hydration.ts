import { useSyncExternalStore } from 'react';

/** The part of a nanostores store this hook needs (atoms and computed stores alike). */
export interface ReadableStore<T> {
  get(): T;
  listen(listener: (value: T) => void): () => void;
}

/**
 * A shared store's value for a personal part of a page (the cart, the signed-in name) that the
 * shell's server renders without it: on the server and while the browser hydrates the server's
 * HTML, `serverValue` (what a visitor without a session and cart sees), so the hydrated markup
 * matches; right after hydration, and in any render from scratch, the store's own value.
 * `serverValue` must be the same object on every call (a module constant).
 */
export function useStoreAfterHydration<T>(store: ReadableStore<T>, serverValue: T): T {
  return useSyncExternalStore(
    (changed) => store.listen(() => changed()),
    () => store.get(),
    () => serverValue,
  );
}

const noChanges = () => () => undefined;

/**
 * False on the server and while the browser hydrates the server's HTML, true from then on (and in
 * any render from scratch): a control whose handler only works once hydrated (Add to cart, Load
 * More) is rendered disabled until then, so a click before it would work is not lost unnoticed.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
}
