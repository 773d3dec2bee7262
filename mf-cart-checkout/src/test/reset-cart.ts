import { cleanTestStorage } from '@nanostores/persistent';
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { $cart } from '@boatshop/state';
import { $cartRefreshStatus, dismissCartNotices } from '../cart/cart-notices';

/** After each page test: unmount, and leave the cart, its notices, storage and mocks as found. */
export function resetAfterPageTest(fetchMock: { mockReset(): unknown }): void {
  cleanup();
  cleanTestStorage();
  $cart.set([]);
  dismissCartNotices();
  $cartRefreshStatus.set('idle');
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}
