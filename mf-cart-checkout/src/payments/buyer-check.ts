import { atom } from 'nanostores';
import type { BuyerCheck, BuyerType } from '@boatshop/contract';
import { isApiError, ROUTE_PATHS } from '@boatshop/contract/client';
import { $cart } from '@boatshop/state';
import { client } from '../api';

// Whether the shopper buys privately or as a business, as the API checked it (POST
// /api/vat/buyer-checks): the API asks VIES and decides the VAT; this store only holds its answer.

export type BuyerCheckState =
  { status: 'idle' } | { status: 'checking' } | { status: 'checked'; check: BuyerCheck } | { status: 'failed'; message: string };

export const $buyerCheck = atom<BuyerCheckState>({ status: 'idle' });

export async function checkBuyer(buyerType: BuyerType, country: string, vatId: string): Promise<void> {
  const items = $cart.get().map((item) => ({ productId: item.productId, quantity: item.quantity }));
  if (!country || items.length === 0) return;
  $buyerCheck.set({ status: 'checking' });
  try {
    const check = await client.request(ROUTE_PATHS.books.buyerCheck, {
      body: { buyerType, country, items, ...(buyerType === 'business' ? { vatId } : {}) },
    });
    $buyerCheck.set({ status: 'checked', check });
  } catch (error) {
    $buyerCheck.set({
      status: 'failed',
      message: isApiError(error) ? error.message : 'The VAT could not be worked out. Please try again.',
    });
  }
}

/** The id of the check the order will be placed under, once the API answered one. */
export function checkedBuyerId(): string | undefined {
  const state = $buyerCheck.get();
  return state.status === 'checked' ? state.check.checkId : undefined;
}

export function resetBuyerCheck(): void {
  $buyerCheck.set({ status: 'idle' });
}
