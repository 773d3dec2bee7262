import { atom } from 'nanostores';
import type { Order, OrderSummary } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import type { OrderStatus } from '@boatshop/contract/constants';
import { client } from '../api';

export interface OrderHistoryState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** the signed-in user's paid orders, newest first (the API's order) */
  data: OrderSummary[];
}

export interface OrderDetailsState {
  status: 'idle' | 'loading' | 'ready' | 'not-found' | 'error';
  order: Order | null;
}

export const $orderHistory = atom<OrderHistoryState>({ status: 'idle', data: [] });

export const $orderDetails = atom<OrderDetailsState>({ status: 'idle', order: null });

/** Fetched each time the dashboard opens; a failure is only logged. */
export async function fetchOrderHistory(): Promise<void> {
  $orderHistory.set({ ...$orderHistory.get(), status: 'loading' });
  try {
    const { data } = await client.orders.list();
    $orderHistory.set({ status: 'ready', data });
  } catch (error) {
    console.error('Order history could not be loaded', error);
    $orderHistory.set({ ...$orderHistory.get(), status: 'error' });
  }
}

// Bumped whenever the order page is left or opens another order, so an answer that arrives
// afterwards cannot put a stale order back.
let detailsGeneration = 0;

async function loadOrder(orderId: string, generation: number): Promise<void> {
  try {
    const order = await client.orders.get(orderId);
    if (generation === detailsGeneration) $orderDetails.set({ status: 'ready', order });
  } catch (error) {
    if (generation !== detailsGeneration) return;
    if (isApiError(error) && error.status === 404) {
      $orderDetails.set({ status: 'not-found', order: null });
      return;
    }
    console.error('Order could not be loaded', error);
    $orderDetails.set({ status: 'error', order: null });
  }
}

export function fetchOrderDetails(orderId: string): Promise<void> {
  detailsGeneration += 1;
  $orderDetails.set({ status: 'loading', order: null });
  return loadOrder(orderId, detailsGeneration);
}

/** Leaving the order page forgets the order. */
export function clearOrderDetails(): void {
  detailsGeneration += 1;
  $orderDetails.set({ status: 'idle', order: null });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After the card provider accepted a payment: the order is paid only on the provider's word,
 * which the API fetches on each call (the webhook may also get there first). Asks until the
 * order is no longer pending or the attempts run out, then loads the order as it stands.
 */
export async function confirmOrderPayment(
  orderId: string,
  options: { attempts?: number; delayMs?: number } = {},
): Promise<OrderStatus | null> {
  const { attempts = 10, delayMs = 1000 } = options;
  detailsGeneration += 1;
  const generation = detailsGeneration;
  $orderDetails.set({ status: 'loading', order: null });
  let status: OrderStatus | null = null;
  for (let attempt = 0; attempt < attempts && generation === detailsGeneration; attempt += 1) {
    if (attempt > 0) await wait(delayMs);
    try {
      ({ status } = await client.payments.confirm({ orderId }));
    } catch (error) {
      // 404: not this user's order; the load below says so. Other failures are worth another try.
      if (isApiError(error) && error.status === 404) break;
      console.error('Payment confirmation failed', error);
    }
    if (status !== null && status !== 'pending') break;
  }
  if (generation === detailsGeneration) await loadOrder(orderId, generation);
  return status;
}
