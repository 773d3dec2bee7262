import { atom } from 'nanostores';
import {
  $cart,
  $cartTotalCents,
  api,
  clearCart,
  formatPrice,
  isApiError,
  refreshCart,
  type CreatePaymentResponse,
  type NamedAddress,
  type PaymentConfig,
} from '@boatshop/state';
import type { CardPaymentMethod } from './card-payment';

export type PaymentConfigState =
  | { status: 'loading' }
  | { status: 'ready'; config: PaymentConfig }
  | { status: 'unavailable'; message: string };

export type CheckoutState =
  | { status: 'idle' }
  | { status: 'submitting' }
  | { status: 'failed'; message: string }
  | { status: 'paid'; orderId: string };

export const $paymentConfig = atom<PaymentConfigState>({ status: 'loading' });
export const $checkout = atom<CheckoutState>({ status: 'idle' });

export async function loadPaymentConfig(): Promise<void> {
  if ($paymentConfig.get().status === 'ready') return;
  try {
    $paymentConfig.set({ status: 'ready', config: await api.get<PaymentConfig>('/payments/config') });
  } catch (error) {
    console.error('Payment settings could not be loaded', error);
    $paymentConfig.set({
      status: 'unavailable',
      message: isApiError(error) && error.status === 503 ? error.message : 'Card payments are not available right now.',
    });
  }
}

/** Forgets a finished or failed attempt, so the page starts fresh when it opens again. */
export function resetCheckout(): void {
  $checkout.set({ status: 'idle' });
}

const NOT_REACHED = 'The shop could not be reached. Nothing was charged; please try again.';

async function failedCreate(error: unknown): Promise<string> {
  if (!isApiError(error)) return NOT_REACHED;
  if (error.code === 'PRICES_CHANGED' && typeof error.body?.totalCents === 'number') {
    // The cart takes the catalogue's prices (and loses what is no longer sold), so its total is
    // the API's again; the notices say what changed. A failed refresh only leaves its notice.
    await refreshCart();
    return `Prices changed: the new total is ${formatPrice(error.body.totalCents)}.`;
  }
  if (error.code === 'OUT_OF_STOCK') {
    // Someone else holds or bought a one-off boat: the refresh takes a sold one out of the cart
    // and notes a reserved one; the API's message names the boat. Nothing was charged.
    await refreshCart();
    return `${error.message} Nothing was charged.`;
  }
  return error.status === 0 ? NOT_REACHED : error.message;
}

/**
 * Pay now: the API prices the cart and opens the order and its payment intent; the card field
 * confirms the intent with the provider. Only the provider's word makes the order paid, which the
 * order page then waits for. A decline keeps the cart and shows the provider's reason.
 */
export async function payForCart(input: { shipping: NamedAddress; billing: NamedAddress; card: CardPaymentMethod }): Promise<void> {
  if ($checkout.get().status === 'submitting') return;
  $checkout.set({ status: 'submitting' });

  let created: CreatePaymentResponse;
  try {
    created = await api.post<CreatePaymentResponse>('/payments/create', {
      // What to buy, never what it costs: the API prices it from the database.
      items: $cart.get().map((item) => ({ productId: item.productId, quantity: item.quantity })),
      expectedTotalCents: $cartTotalCents.get(),
      shipping: input.shipping,
      billing: input.billing,
    });
  } catch (error) {
    $checkout.set({ status: 'failed', message: await failedCreate(error) });
    return;
  }

  const result = await input.card.confirm(created.clientSecret, input.billing);
  if (!result.ok) {
    // The webhook marks the order failed too; asking now does not depend on it arriving.
    api.post('/payments/confirm', { orderId: created.orderId }).catch((error: unknown) => {
      console.error('Payment confirmation failed', error);
    });
    $checkout.set({ status: 'failed', message: result.message });
    return;
  }
  // Paid first, then the cart emptied: the page sees the order to go to before it sees an empty cart.
  $checkout.set({ status: 'paid', orderId: created.orderId });
  clearCart();
}
