import { atom } from 'nanostores';
import type { CreatePaymentResponse, NamedAddress, PaymentConfig, PaymentMode, PaymentQuote } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { $cart, $cartTotalCents, clearCart, formatPrice } from '@boatshop/state';
import { client } from '../api';
import { dismissCartNotices } from '../cart/cart-notices';
import { refreshCart } from '../cart/cart-refresh';
import { checkedBuyerId } from './buyer-check';
import type { CardPaymentMethod } from './card-payment';

export type PaymentConfigState =
  { status: 'loading' } | { status: 'ready'; config: PaymentConfig } | { status: 'unavailable'; message: string };

export type CheckoutState =
  { status: 'idle' } | { status: 'submitting' } | { status: 'failed'; message: string } | { status: 'paid'; orderId: string };

/**
 * How the cart can be paid. `unavailable`: the API could not say (an older API, a
 * network failure); checkout then stays the full card payment it always was, and the API still
 * refuses an amount above the card limit with a message that says so.
 */
export type PaymentQuoteState = { status: 'loading' } | { status: 'ready'; quote: PaymentQuote } | { status: 'unavailable' };

export const $paymentConfig = atom<PaymentConfigState>({ status: 'loading' });
export const $checkout = atom<CheckoutState>({ status: 'idle' });
export const $paymentQuote = atom<PaymentQuoteState>({ status: 'loading' });
/** The shopper's choice where a deposit is offered but not required; a required deposit overrides it. */
export const $depositChosen = atom(false);

export async function loadPaymentConfig(): Promise<void> {
  if ($paymentConfig.get().status === 'ready') return;
  try {
    $paymentConfig.set({ status: 'ready', config: await client.payments.config() });
  } catch (error) {
    console.error('Payment settings could not be loaded', error);
    $paymentConfig.set({
      status: 'unavailable',
      message: isApiError(error) && error.status === 503 ? error.message : 'Card payments are not available right now.',
    });
  }
}

const cartItems = () => $cart.get().map((item) => ({ productId: item.productId, quantity: item.quantity }));

// Bumped by every quote request, so the answer for an older cart cannot replace a newer one.
let quoteGeneration = 0;

// The shipping country the last quote was asked for: a consumer's amount follows it (a new boat
// delivered to another member state, or an export, is sold without VAT).
let quotedShippingCountry = '';

/**
 * Asks the API how the cart as it stands can be paid: in full, or with a deposit (and how much),
 * and what the buyer pays: the buyer check's amount, else a consumer's in `shippingCountry`.
 */
export async function loadPaymentQuote(shippingCountry: string = quotedShippingCountry): Promise<void> {
  quotedShippingCountry = shippingCountry;
  quoteGeneration += 1;
  const generation = quoteGeneration;
  const items = cartItems();
  if (items.length === 0) return;
  $paymentQuote.set({ status: 'loading' });
  try {
    // Once the buyer said who buys, the total and the deposit are that buyer's (net when exempt).
    const buyerCheckId = checkedBuyerId();
    const quote = await client.payments.quote({
      items,
      ...(buyerCheckId ? { buyerCheckId } : shippingCountry ? { shippingCountry } : {}),
    });
    if (generation === quoteGeneration) $paymentQuote.set({ status: 'ready', quote });
  } catch (error) {
    if (generation !== quoteGeneration) return;
    console.error('Payment quote could not be loaded', error);
    $paymentQuote.set({ status: 'unavailable' });
  }
}

/** `deposit` when the quote requires one, or offers one and the shopper chose it; else `full`. */
export function paymentModeOf(quote: PaymentQuoteState, depositChosen: boolean): PaymentMode {
  if (quote.status !== 'ready' || !quote.quote.depositOffered || quote.quote.depositCents === null) return 'full';
  return quote.quote.depositRequired || depositChosen ? 'deposit' : 'full';
}

export function chooseDeposit(chosen: boolean): void {
  $depositChosen.set(chosen);
}

/** Forgets a finished or failed attempt, so the page starts fresh when it opens again. */
export function resetCheckout(): void {
  quoteGeneration += 1;
  quotedShippingCountry = '';
  $checkout.set({ status: 'idle' });
  $paymentQuote.set({ status: 'loading' });
  $depositChosen.set(false);
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
  if (error.code === 'DEPOSIT_NOT_OFFERED') {
    // The cart changed under the quote (a boat left it): ask again, so the page offers what applies.
    void loadPaymentQuote();
    return error.message;
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
 * confirms the intent with the provider. Only the provider's word makes the order paid (or, for a
 * deposit, reserved), which the order page then waits for. A decline keeps the cart and shows the
 * provider's reason. `mode` is left out for a full payment, as before deposits existed.
 */
export async function payForCart(input: {
  shipping: NamedAddress;
  billing: NamedAddress;
  card: CardPaymentMethod;
  mode?: PaymentMode;
}): Promise<void> {
  if ($checkout.get().status === 'submitting') return;
  $checkout.set({ status: 'submitting' });

  let created: CreatePaymentResponse;
  const buyerCheckId = checkedBuyerId();
  try {
    created = await client.payments.create({
      // What to buy, never what it costs: the API prices it from the database.
      items: cartItems(),
      expectedTotalCents: $cartTotalCents.get(),
      shipping: input.shipping,
      billing: input.billing,
      ...(input.mode === 'deposit' ? { mode: 'deposit' } : {}),
      // The buyer check decides the VAT, and so the amount the API charges.
      ...(buyerCheckId ? { buyerCheckId } : {}),
    });
  } catch (error) {
    $checkout.set({ status: 'failed', message: await failedCreate(error) });
    return;
  }

  const result = await input.card.confirm(created.clientSecret, input.billing);
  if (!result.ok) {
    // The webhook marks the order failed too; asking now does not depend on it arriving.
    client.payments.confirm({ orderId: created.orderId }).catch((error: unknown) => {
      console.error('Payment confirmation failed', error);
    });
    $checkout.set({ status: 'failed', message: result.message });
    return;
  }
  // Paid first, then the cart emptied: the page sees the order to go to before it sees an empty cart.
  $checkout.set({ status: 'paid', orderId: created.orderId });
  // The notices were about a cart that is gone.
  clearCart();
  dismissCartNotices();
}
