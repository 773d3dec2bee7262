import type { NamedAddress } from '@boatshop/contract';

// The browser side of the payment adapter: one interface, two implementations. Stripe Elements
// when the API names provider 'stripe'; the local card form, which talks to the dev-services
// stand-in as Stripe.js talks to Stripe, when it names 'local'.

export type CardResult = { ok: true } | { ok: false; message: string };

export interface CardPaymentMethod {
  /** every card input filled in (Stripe: the element reports complete) */
  isComplete(): boolean;
  /** Confirms the payment intent with the card; a decline comes back with the provider's reason. */
  confirm(clientSecret: string, billing: NamedAddress): Promise<CardResult>;
}

export interface CardFieldProps {
  publishableKey: string;
  /** called with the method once the field can pay, and with null when it goes away */
  onReady: (method: CardPaymentMethod | null) => void;
}

export const PROVIDER_UNREACHABLE = 'The payment service could not be reached. Nothing was charged; please try again.';
