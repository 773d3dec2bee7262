import type { PaymentConfig } from '@boatshop/contract';
import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config.js';

/** Tells the browser which card field to show: Stripe Elements, or the local form for the stand-in. */
export type BrowserPaymentConfig = PaymentConfig;

/** What the shop needs to know about a payment intent, whichever implementation answered. */
export interface PaymentIntentState {
  id: string;
  status: Stripe.PaymentIntent.Status;
  amountCents: number;
  currency: string;
  /** set once a confirmation failed, e.g. "Your card was declined." */
  failureMessage: string | null;
  /** what the browser needs to confirm it; null in webhook events */
  clientSecret: string | null;
  /** why a canceled intent was cancelled: 'abandoned' is the shop's expiry of an unpaid order */
  cancellationReason?: string | null;
}

/** Why the shop cancels an intent: the expiry of an unpaid order, a replaced cart, an admin's cancel. */
export type CancelReason = 'abandoned' | 'duplicate' | 'requested_by_customer';

/** A charge as `charge.refunded` reports it: the total refunded so far, whoever refunded it. */
export interface ChargeState {
  id: string;
  paymentIntentId: string | null;
  amountCents: number;
  amountRefundedCents: number;
  currency: string;
}

export interface RefundState {
  id: string;
  paymentIntentId: string | null;
  status: string | null;
  amountCents: number;
  /** the shop's refund row, when the shop made it */
  shopRefundId: string | null;
}

export interface DisputeState {
  id: string;
  chargeId: string | null;
  paymentIntentId: string | null;
  amountCents: number;
  currency: string;
  reason: string;
  /** 'won' and 'lost' once closed */
  status: string;
}

export type PaymentEvent =
  | {
      id: string;
      type: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'payment_intent.canceled';
      intent: PaymentIntentState;
    }
  | { id: string; type: 'charge.refunded'; charge: ChargeState }
  | { id: string; type: 'refund.created' | 'refund.updated'; refund: RefundState }
  | { id: string; type: 'charge.dispute.created' | 'charge.dispute.closed'; dispute: DisputeState }
  | { id: string; type: 'other' };

export interface RefundResult {
  id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
  amountCents: number;
}

/** The provider refused the request itself (e.g. more than the charge has left); not worth retrying. */
export class PaymentProviderRefusal extends Error {}

export class WebhookSignatureError extends Error {}

/** The one seam between the shop and its card provider. */
export interface PaymentProvider {
  readonly browserConfig: BrowserPaymentConfig;
  /** Creating twice for the same order returns the same intent (idempotency key from the order id). */
  createIntent(input: { orderId: string; userId: string; amountCents: number }): Promise<{ id: string; clientSecret: string }>;
  retrieveIntent(id: string): Promise<PaymentIntentState>;
  /** Cancels an intent that can no longer be paid; answers the intent as it is (e.g. already succeeded). */
  cancelIntent(id: string, reason?: CancelReason): Promise<PaymentIntentState>;
  // ledger: reconciliation
  /** Every refund of the intent's charges, as the provider records them. */
  listRefunds?(paymentIntentId: string): Promise<RefundResult[]>;
  /** A refund of a succeeded intent; the same idempotency key refunds once, however often it is sent. */
  refund(input: {
    paymentIntentId: string;
    amountCents: number;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<RefundResult>;
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
    cancellationReason: intent.cancellation_reason ?? null,
    clientSecret: intent.client_secret ?? null,
  };
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

function toChargeState(charge: Stripe.Charge): ChargeState {
  return {
    id: charge.id,
    paymentIntentId: idOf(charge.payment_intent),
    amountCents: charge.amount,
    amountRefundedCents: charge.amount_refunded,
    currency: charge.currency,
  };
}

function toDisputeState(dispute: Stripe.Dispute): DisputeState {
  return {
    id: dispute.id,
    chargeId: idOf(dispute.charge),
    paymentIntentId: idOf(dispute.payment_intent),
    amountCents: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
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
    async cancelIntent(id, reason = 'abandoned') {
      try {
        return toIntentState(await stripe.paymentIntents.cancel(id, { cancellation_reason: reason }));
      } catch (error) {
        // Already canceled or succeeded: the answer is the intent as it stands.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state') {
          return toIntentState(await stripe.paymentIntents.retrieve(id));
        }
        throw error;
      }
    },
    async listRefunds(paymentIntentId) {
      const refunds = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 });
      return refunds.data.map((refund) => ({
        id: refund.id,
        status: (refund.status ?? 'pending') as RefundResult['status'],
        amountCents: refund.amount,
      }));
    },
    async refund({ paymentIntentId, amountCents, idempotencyKey, metadata }) {
      try {
        const refund = await stripe.refunds.create({ payment_intent: paymentIntentId, amount: amountCents, metadata }, { idempotencyKey });
        return { id: refund.id, status: (refund.status ?? 'pending') as RefundResult['status'], amountCents: refund.amount };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new PaymentProviderRefusal(error.message);
        throw error;
      }
    },
    parseWebhook(rawBody, signatureHeader) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
      }
      switch (event.type) {
        case 'payment_intent.succeeded':
        case 'payment_intent.payment_failed':
        case 'payment_intent.canceled':
          return { id: event.id, type: event.type, intent: toIntentState(event.data.object) };
        case 'charge.refunded':
          return { id: event.id, type: event.type, charge: toChargeState(event.data.object) };
        case 'refund.created':
        case 'refund.updated': {
          const refund = event.data.object;
          return {
            id: event.id,
            type: event.type,
            refund: {
              id: refund.id,
              paymentIntentId: idOf(refund.payment_intent),
              status: refund.status,
              amountCents: refund.amount,
              shopRefundId: refund.metadata?.refundId ?? null,
            },
          };
        }
        case 'charge.dispute.created':
        case 'charge.dispute.closed':
          return { id: event.id, type: event.type, dispute: toDisputeState(event.data.object) };
        default:
          return { id: event.id, type: 'other' };
      }
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
