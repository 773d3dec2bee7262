import { cleanTestStorage } from '@nanostores/persistent';
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { $cart, $cartRefreshStatus, dismissCartNotices } from '@boatshop/state';

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
