import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config.js';

/** Stripe's per-payment ceiling for EUR, in cents: larger orders are refused before any charge. */
export const MAX_PAYMENT_CENTS = 99_999_999;

/** The shop's own floor (SPEC §9: a cart below 1 EUR is not payable); Stripe's is 0,50 €. */
export const MIN_PAYMENT_CENTS = 100;

/** Tells the browser which card field to show: Stripe Elements, or the local form for the stand-in. */
export interface BrowserPaymentConfig {
  provider: 'stripe' | 'local';
  publishableKey: string;
  localApiBase?: string;
}

/** What the shop needs to know about a payment intent, whichever implementation answered. */
export interface PaymentIntentState {
  id: string;
  status: Stripe.PaymentIntent.Status;
  amountCents: number;
  currency: string;
  /** set once a confirmation failed, e.g. "Your card was declined." */
  failureMessage: string | null;
}

export type PaymentEvent =
  | { id: string; type: 'payment_intent.succeeded' | 'payment_intent.payment_failed'; intent: PaymentIntentState }
  | { id: string; type: 'other' };

export class WebhookSignatureError extends Error {}

/** The one seam between the shop and its card provider. */
export interface PaymentProvider {
  readonly browserConfig: BrowserPaymentConfig;
  /** Creating twice for the same order returns the same intent (idempotency key from the order id). */
  createIntent(input: { orderId: string; userId: string; amountCents: number }): Promise<{ id: string; clientSecret: string }>;
  retrieveIntent(id: string): Promise<PaymentIntentState>;
  /** Verifies the signature over the exact bytes received; throws WebhookSignatureError. */
  parseWebhook(rawBody: Buffer, signatureHeader: string): PaymentEvent;
}

/** Stripe's default: a signature older than five minutes is a replay, not a delivery. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

function toIntentState(intent: Stripe.PaymentIntent): PaymentIntentState {
  return {
    id: intent.id,
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    failureMessage: intent.last_payment_error?.message ?? null,
  };
}

/** Both implementations speak Stripe's HTTP API through the SDK; they differ in host and browser side. */
function stripeApiProvider(stripe: Stripe, webhookSecret: string, browserConfig: BrowserPaymentConfig): PaymentProvider {
  return {
    browserConfig,
    async createIntent({ orderId, userId, amountCents }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: 'eur',
          // Cards only: the shop's card field takes nothing that would redirect the shopper away.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: { orderId, userId },
        },
        // A retried request (network blip, SDK retry) finds the intent made the first time.
        { idempotencyKey: `boatshop-order-${orderId}` },
      );
      if (!intent.client_secret) throw new Error(`Payment intent ${intent.id} came without a client secret`);
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async retrieveIntent(id) {
      return toIntentState(await stripe.paymentIntents.retrieve(id));
    },
    parseWebhook(rawBody, signatureHeader) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
      }
      if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
        return { id: event.id, type: event.type, intent: toIntentState(event.data.object) };
      }
      return { id: event.id, type: 'other' };
    },
  };
}

const SDK_OPTIONS = { maxNetworkRetries: 2, timeout: 20_000 } as const;

/** Real Stripe (api.stripe.com), with Stripe Elements in the browser. */
export function createStripeProvider(settings: PaymentsConfig): PaymentProvider {
  return stripeApiProvider(new Stripe(settings.secretKey, SDK_OPTIONS), settings.webhookSecret, {
    provider: 'stripe',
    publishableKey: settings.publishableKey,
  });
}

/**
 * The offline default: the dev-services stand-in, which answers Stripe's API in test mode and
 * signs its webhooks the way Stripe does. The browser shows the local card form, which confirms
 * against the stand-in directly, as Stripe.js does against Stripe.
 */
export function createLocalStandInProvider(settings: PaymentsConfig): PaymentProvider {
  if (!settings.apiBase) throw new Error('The local payment provider needs the stand-in address');
  const base = new URL(settings.apiBase);
  const protocol = base.protocol === 'https:' ? 'https' : 'http';
  const stripe = new Stripe(settings.secretKey, {
    ...SDK_OPTIONS,
    host: base.hostname,
    port: Number(base.port || (protocol === 'https' ? 443 : 80)),
    protocol,
  });
  return stripeApiProvider(stripe, settings.webhookSecret, {
    provider: 'local',
    publishableKey: settings.publishableKey,
    localApiBase: settings.browserApiBase ?? base.origin,
  });
}

export function createPaymentProvider(settings: PaymentsConfig): PaymentProvider {
  return settings.provider === 'stripe' ? createStripeProvider(settings) : createLocalStandInProvider(settings);
}
