// The in-memory Stripe test-mode account behind the stand-in: payment intents, payment methods
// and events, with the request rules and object shapes of Stripe's API v1. Everything here is
// synchronous, so a request runs to completion before the next one reads the state.

import { createHmac, randomBytes } from 'node:crypto';
import {
  cardBrand,
  chargeOutcome,
  PENDING_REFUND_CARDS,
  TEST_PAYMENT_METHOD_CARDS,
  validateCard,
  type CardDetails,
} from './stripe-cards.js';
import {
  cardErrorBody,
  invalidRequest,
  missingParam,
  notFound,
  StripeApiError,
  unknownParam,
  type CardErrorDetails,
  type StripeErrorBody,
} from './stripe-errors.js';
import type { FormObject, FormValue } from './stripe-form.js';
import type { StripeEvent } from './stripe-webhooks.js';

/** Smallest and largest amounts Stripe accepts per currency, in minor units. */
const CURRENCY_LIMITS: Record<string, { min: number; max: number }> = {
  eur: { min: 50, max: 99_999_999 },
  usd: { min: 50, max: 99_999_999 },
  gbp: { min: 30, max: 99_999_999 },
  chf: { min: 50, max: 99_999_999 },
};

/** Fields Stripe.js adds to browser requests for its own telemetry; the API ignores them. */
const STRIPE_JS_FIELDS = ['_stripe_version', 'payment_user_agent', 'time_on_page', 'guid', 'muid', 'sid', 'referrer', 'use_stripe_sdk'];

export interface RequestContext {
  requestId: string;
  idempotencyKey: string | null;
  apiVersion: string;
}

export interface Address {
  city: string | null;
  country: string | null;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  state: string | null;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  allow_redisplay: 'unspecified';
  billing_details: { address: Address; email: string | null; name: string | null; phone: string | null; tax_id: null };
  card: {
    brand: string;
    checks: { address_line1_check: null; address_postal_code_check: null; cvc_check: 'unchecked' | null };
    country: string;
    display_brand: string;
    exp_month: number;
    exp_year: number;
    fingerprint: string;
    funding: 'credit';
    generated_from: null;
    last4: string;
    networks: { available: string[]; preferred: null };
    three_d_secure_usage: { supported: true };
    wallet: null;
  };
  created: number;
  customer: null;
  livemode: false;
  metadata: Record<string, string>;
  type: 'card';
}

export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded';

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_details: { tip: Record<string, never> };
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: { allow_redirects: 'always' | 'never'; enabled: true } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic_async';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  last_payment_error: StripeErrorBody | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_configuration_details: null;
  payment_method_options: {
    card: { installments: null; mandate_options: null; network: null; request_three_d_secure: 'automatic' };
  };
  payment_method_types: string[];
  processing: null;
  receipt_email: string | null;
  review: null;
  setup_future_usage: null;
  shipping: Shipping | null;
  source: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status: PaymentIntentStatus;
  transfer_data: null;
  transfer_group: null;
}

interface Shipping {
  address: Address;
  carrier: string | null;
  name: string;
  phone: string | null;
  tracking_number: string | null;
}

export type Access = 'secret' | 'publishable';

export interface ApiResult {
  status: number;
  body: object;
}

function randomId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}

export function newRequestId(): string {
  return randomId('req', 14);
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

// --- parameter reading, with Stripe's error messages -------------------------------------

function rejectUnknown(params: FormObject, allowed: readonly string[], prefix = ''): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw unknownParam(prefix ? `${prefix}[${key}]` : key);
  }
}

function readString(params: FormObject, key: string, path = key): string | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${path}`, { code: 'parameter_invalid_string', param: path });
  return value;
}

function readObject(params: FormObject, key: string, path = key): FormObject | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' || Array.isArray(value)) {
    throw invalidRequest(`Invalid object`, { code: 'parameter_invalid_object', param: path });
  }
  return value;
}

function readStringList(params: FormObject, key: string): string[] | undefined {
  const value: FormValue | undefined = params[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalidRequest(`Invalid array`, { code: 'parameter_invalid_array', param: key });
  return value.filter((item): item is string => typeof item === 'string');
}

function readInteger(params: FormObject, key: string, path = key): number | undefined {
  const value = readString(params, key, path);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw invalidRequest(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: path });
  }
  return Number(value);
}

function readBoolean(params: FormObject, key: string): boolean | undefined {
  const value = readString(params, key);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') {
    throw invalidRequest(`Invalid boolean: ${value}`, { code: 'parameter_invalid_boolean', param: key });
  }
  return value === 'true';
}

function readMetadata(params: FormObject, existing: Record<string, string> = {}): Record<string, string> {
  const value = params.metadata;
  if (value === undefined) return existing;
  // The SDK sends `metadata=` to clear all keys.
  if (value === '') return {};
  const metadata = readObject(params, 'metadata') ?? {};
  const result = { ...existing };
  for (const [key, entry] of Object.entries(metadata)) {
    if (typeof entry !== 'string') {
      throw invalidRequest(`Invalid value for metadata[${key}]: metadata values must be strings.`, { param: `metadata[${key}]` });
    }
    if (entry === '') delete result[key];
    else result[key] = entry;
  }
  return result;
}

function readAddress(params: FormObject, key: string, path: string): Address | undefined {
  const value = readObject(params, key, path);
  if (value === undefined) return undefined;
  rejectUnknown(value, ['city', 'country', 'line1', 'line2', 'postal_code', 'state'], path);
  const field = (name: string): string | null => readString(value, name, `${path}[${name}]`) || null;
  return {
    city: field('city'),
    country: field('country'),
    line1: field('line1'),
    line2: field('line2'),
    postal_code: field('postal_code'),
    state: field('state'),
  };
}

function readShipping(params: FormObject): Shipping | undefined {
  const shipping = readObject(params, 'shipping');
  if (shipping === undefined) return undefined;
  rejectUnknown(shipping, ['address', 'carrier', 'name', 'phone', 'tracking_number'], 'shipping');
  const address = readAddress(shipping, 'address', 'shipping[address]');
  if (!address) throw missingParam('shipping[address]');
  const name = readString(shipping, 'name', 'shipping[name]');
  if (!name) throw missingParam('shipping[name]');
  return {
    address,
    carrier: readString(shipping, 'carrier', 'shipping[carrier]') ?? null,
    name,
    phone: readString(shipping, 'phone', 'shipping[phone]') ?? null,
    tracking_number: readString(shipping, 'tracking_number', 'shipping[tracking_number]') ?? null,
  };
}

/** The stand-in does not model charges or customers, so it refuses expansions instead of ignoring them. */
function rejectExpand(params: FormObject): void {
  const expand = readStringList(params, 'expand');
  const first = expand?.[0];
  if (first !== undefined) throw invalidRequest(`This property cannot be expanded (${first}).`, { param: 'expand' });
}

function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}

function withoutStripeJsFields(params: FormObject): FormObject {
  const rest = { ...params };
  for (const field of STRIPE_JS_FIELDS) delete rest[field];
  return rest;
}

const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'];
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'];

/** The charge a succeeded confirmation makes: what refunds and disputes are about. */
export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: true;
  created: number;
  currency: string;
  disputed: boolean;
  livemode: false;
  metadata: Record<string, string>;
  paid: true;
  payment_intent: string;
  payment_method: string;
  refunded: boolean;
  status: 'succeeded';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: null;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'pending' | 'succeeded' | 'failed';
  transfer_reversal: null;
}

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  created: number;
  currency: string;
  is_charge_refundable: false;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string;
  status: 'needs_response' | 'won' | 'lost';
}

function newCharge(id: string, intent: PaymentIntent, paymentMethodId: string): Charge {
  return {
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: 0,
    captured: true,
    created: nowSeconds(),
    currency: intent.currency,
    disputed: false,
    livemode: false,
    metadata: intent.metadata,
    paid: true,
    payment_intent: intent.id,
    payment_method: paymentMethodId,
    refunded: false,
    status: 'succeeded',
  };
}

// --- the account -----------------------------------------------------------------------

export interface StripeAccountEvents {
  onEvent: (event: StripeEvent) => void;
}

export class StripeAccount {
  private readonly paymentIntents = new Map<string, PaymentIntent>();
  private readonly paymentMethods = new Map<string, PaymentMethod>();
  private readonly events = new Map<string, StripeEvent>();
  private readonly charges = new Map<string, Charge>();
  private readonly refunds = new Map<string, Refund>();
  private readonly disputes = new Map<string, Dispute>();
  private readonly intentApiVersions = new Map<string, string>();
  private readonly fingerprintKey = randomBytes(16);
  /** Full card numbers, kept apart from the objects so no response can leak one. */
  private readonly cardNumbers = new Map<string, string>();

  constructor(private readonly listeners: StripeAccountEvents) {}

  createPaymentIntent(params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, [
      'amount',
      'currency',
      'metadata',
      'description',
      'receipt_email',
      'shipping',
      'automatic_payment_methods',
      'payment_method_types',
      'payment_method',
      'confirm',
      'return_url',
      'expand',
    ]);
    rejectExpand(params);

    const amount = readInteger(params, 'amount');
    if (amount === undefined) throw missingParam('amount');
    const currency = readString(params, 'currency')?.toLowerCase();
    if (!currency) throw missingParam('currency');
    const limits = CURRENCY_LIMITS[currency];
    if (!limits) {
      throw invalidRequest(
        `Invalid currency: ${currency}. The Stripe stand-in supports these currencies: ${Object.keys(CURRENCY_LIMITS).join(', ')}.`,
        { param: 'currency' },
      );
    }
    if (amount < limits.min) {
      throw invalidRequest(`Amount must be at least ${formatAmount(limits.min, currency)} ${currency}`, {
        code: 'amount_too_small',
        param: 'amount',
      });
    }
    if (amount > limits.max) {
      throw invalidRequest(`Amount must be no more than ${formatAmount(limits.max, currency)}`, {
        code: 'amount_too_large',
        param: 'amount',
      });
    }

    const automatic = readObject(params, 'automatic_payment_methods');
    const types = readStringList(params, 'payment_method_types');
    if (automatic !== undefined && types !== undefined) {
      throw invalidRequest('You may only specify one of these parameters: automatic_payment_methods, payment_method_types.', {
        param: 'automatic_payment_methods',
      });
    }
    let automaticPaymentMethods: PaymentIntent['automatic_payment_methods'] = null;
    if (automatic !== undefined) {
      rejectUnknown(automatic, ['enabled', 'allow_redirects'], 'automatic_payment_methods');
      const enabled = readBoolean(automatic, 'enabled');
      if (enabled === undefined) throw missingParam('automatic_payment_methods[enabled]');
      const allowRedirects = readString(automatic, 'allow_redirects', 'automatic_payment_methods[allow_redirects]') ?? 'always';
      if (allowRedirects !== 'always' && allowRedirects !== 'never') {
        throw invalidRequest(`Invalid automatic_payment_methods[allow_redirects]: must be one of always or never`, {
          param: 'automatic_payment_methods[allow_redirects]',
        });
      }
      if (enabled) automaticPaymentMethods = { allow_redirects: allowRedirects, enabled: true };
    } else if (types === undefined) {
      // Since API version 2023-08-16 omitting both parameters means automatic payment methods.
      automaticPaymentMethods = { allow_redirects: 'always', enabled: true };
    }
    const unsupportedType = types?.find((type) => type !== 'card');
    if (unsupportedType !== undefined) {
      throw invalidRequest(`The payment method type "${unsupportedType}" is invalid. The Stripe stand-in only supports card payments.`, {
        code: 'payment_intent_invalid_parameter',
        param: 'payment_method_types',
      });
    }

    const confirm = readBoolean(params, 'confirm') ?? false;
    if (!confirm && params.return_url !== undefined) {
      throw invalidRequest('You can only pass in return_url if confirm is set to true.', { param: 'return_url' });
    }

    const id = randomId('pi');
    const intent: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: automaticPaymentMethods,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomId('x', 25).slice(2)}`,
      confirmation_method: 'automatic',
      created: nowSeconds(),
      currency,
      customer: null,
      description: readString(params, 'description') ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: readMetadata(params),
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: {
        card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
      },
      payment_method_types: ['card'],
      processing: null,
      receipt_email: readString(params, 'receipt_email') ?? null,
      review: null,
      setup_future_usage: null,
      shipping: readShipping(params) ?? null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'requires_payment_method',
      transfer_data: null,
      transfer_group: null,
    };

    const paymentMethodId = readString(params, 'payment_method');
    const paymentMethod = paymentMethodId === undefined ? undefined : this.resolvePaymentMethod(paymentMethodId, 'payment_method');
    if (paymentMethod) {
      intent.payment_method = paymentMethod.id;
      intent.status = 'requires_confirmation';
    }
    this.paymentIntents.set(id, intent);
    this.intentApiVersions.set(id, context.apiVersion);

    if (confirm) return this.runConfirmation(intent, paymentMethod, context);
    return { status: 200, body: intent };
  }

  retrievePaymentIntent(id: string, access: Access, params: FormObject): ApiResult {
    const intent = this.findPaymentIntent(id);
    if (access === 'publishable') {
      rejectUnknown(withoutStripeJsFields(params), ['client_secret', 'expand']);
      this.checkClientSecret(intent, params);
    } else {
      rejectUnknown(params, ['expand']);
    }
    rejectExpand(params);
    return { status: 200, body: intent };
  }

  confirmPaymentIntent(id: string, access: Access, rawParams: FormObject, context: RequestContext): ApiResult {
    const intent = this.findPaymentIntent(id);
    const params = access === 'publishable' ? withoutStripeJsFields(rawParams) : rawParams;
    const allowed = ['payment_method', 'payment_method_data', 'return_url', 'receipt_email', 'shipping', 'expand'];
    rejectUnknown(params, access === 'publishable' ? [...allowed, 'client_secret'] : allowed);
    if (access === 'publishable') this.checkClientSecret(intent, params);
    rejectExpand(params);

    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      const message =
        intent.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`;
      throw invalidRequest(message, { code: 'payment_intent_unexpected_state' });
    }

    const paymentMethodId = readString(params, 'payment_method');
    const paymentMethodData = readObject(params, 'payment_method_data');
    if (paymentMethodId !== undefined && paymentMethodData !== undefined) {
      throw invalidRequest('You may only specify one of these parameters: payment_method, payment_method_data.', {
        param: 'payment_method_data',
      });
    }
    const shipping = readShipping(params);
    const receiptEmail = readString(params, 'receipt_email');
    if (shipping) intent.shipping = shipping;
    if (receiptEmail !== undefined) intent.receipt_email = receiptEmail || null;

    let paymentMethod: PaymentMethod | undefined;
    try {
      if (paymentMethodData !== undefined) {
        paymentMethod = this.buildPaymentMethod(paymentMethodData, 'payment_method_data');
      } else if (paymentMethodId !== undefined) {
        paymentMethod = this.resolvePaymentMethod(paymentMethodId, 'payment_method');
      } else if (intent.payment_method !== null) {
        paymentMethod = this.paymentMethods.get(intent.payment_method);
      }
    } catch (error) {
      if (error instanceof CardValidationError) return this.failPayment(intent, error.details, undefined, undefined, context);
      throw error;
    }
    return this.runConfirmation(intent, paymentMethod, context);
  }

  createPaymentMethod(params: FormObject): ApiResult {
    try {
      return { status: 200, body: this.buildPaymentMethod(withoutStripeJsFields(params), '') };
    } catch (error) {
      if (error instanceof CardValidationError) throw new StripeApiError(402, cardErrorBody(error.details));
      throw error;
    }
  }

  /**
   * POST /v1/payment_intents/:id/cancel. Stripe cancels an intent in any state but succeeded
   * and canceled, and sends `payment_intent.canceled`.
   */
  cancelPaymentIntent(id: string, params: FormObject, context: RequestContext): ApiResult {
    const intent = this.findPaymentIntent(id);
    rejectUnknown(params, ['cancellation_reason', 'expand']);
    rejectExpand(params);
    const reason = readString(params, 'cancellation_reason') ?? null;
    if (reason !== null && !CANCELLATION_REASONS.includes(reason)) {
      throw invalidRequest(`Invalid cancellation_reason: must be one of ${CANCELLATION_REASONS.join(', ')}`, {
        param: 'cancellation_reason',
      });
    }
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        { code: 'payment_intent_unexpected_state' },
      );
    }
    intent.status = 'canceled';
    intent.canceled_at = nowSeconds();
    intent.cancellation_reason = reason;
    this.emit('payment_intent.canceled', intent, context);
    return { status: 200, body: intent };
  }

  /**
   * POST /v1/refunds (and the stand-in's dashboard): refunds a succeeded payment, in full or in
   * part, never beyond what is left; sends `refund.created` and `charge.refunded`, whose charge
   * carries `amount_refunded` (the total so far) as Stripe's does.
   */
  createRefund(params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
    rejectExpand(params);
    const intentId = readString(params, 'payment_intent');
    const chargeParam = readString(params, 'charge');
    if (intentId === undefined && chargeParam === undefined) {
      throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', {
        code: 'parameter_missing',
      });
    }
    let charge: Charge | undefined;
    if (intentId !== undefined) {
      const intent = this.findPaymentIntent(intentId);
      charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined;
      if (intent.status !== 'succeeded' || !charge) {
        throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          code: 'charge_not_refundable',
          param: 'payment_intent',
        });
      }
    } else {
      charge = this.charges.get(chargeParam!);
      if (!charge) throw notFound('charge', chargeParam!, 'charge');
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    }
    const amount = readInteger(params, 'amount') ?? remaining;
    if (amount <= 0) throw invalidRequest('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
    if (amount > remaining) {
      throw invalidRequest(
        `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const reason = readString(params, 'reason') ?? null;
    if (reason !== null && !REFUND_REASONS.includes(reason)) {
      throw invalidRequest(`Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`, { param: 'reason' });
    }
    const refund: Refund = {
      id: randomId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      metadata: readMetadata(params),
      payment_intent: charge.payment_intent,
      reason,
      receipt_number: null,
      source_transfer_reversal: null,
      status: PENDING_REFUND_CARDS.has(this.cardNumbers.get(charge.payment_method) ?? '') ? 'pending' : 'succeeded',
      transfer_reversal: null,
    };
    this.refunds.set(refund.id, refund);
    // Like Stripe, a pending refund already counts in the charge's amount_refunded.
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit('refund.created', refund, context);
    this.emit('charge.refunded', charge, context);
    return { status: 200, body: refund };
  }

  /**
   * The stand-in's dashboard: a pending refund settles, as Stripe's bank network does later
   * (`refund.updated`; a failure also gives the amount back to the charge and sends `refund.failed`).
   */
  settleRefund(refundId: string, params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['status']);
    const refund = this.refunds.get(refundId);
    if (!refund) throw notFound('refund', refundId);
    const status = readString(params, 'status') ?? 'succeeded';
    if (status !== 'succeeded' && status !== 'failed') throw invalidRequest('status must be succeeded or failed.', { param: 'status' });
    if (refund.status !== 'pending') throw invalidRequest(`Refund ${refund.id} is not pending (${refund.status}).`);
    refund.status = status;
    if (status === 'failed') {
      const charge = this.charges.get(refund.charge);
      if (charge) {
        charge.amount_refunded -= refund.amount;
        charge.refunded = false;
      }
      this.emit('refund.failed', refund, context);
    }
    this.emit('refund.updated', refund, context);
    return { status: 200, body: refund };
  }

  /** GET /v1/refunds, newest first, optionally of one payment intent or charge (no paging: few here). */
  listRefunds(params: FormObject): ApiResult {
    rejectUnknown(params, ['payment_intent', 'charge', 'limit']);
    const intentId = readString(params, 'payment_intent');
    const chargeId = readString(params, 'charge');
    const limit = readInteger(params, 'limit') ?? 10;
    const data = [...this.refunds.values()]
      .filter(
        (refund) =>
          (intentId === undefined || refund.payment_intent === intentId) && (chargeId === undefined || refund.charge === chargeId),
      )
      .reverse();
    return { status: 200, body: { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url: '/v1/refunds' } };
  }

  retrieveRefund(id: string): ApiResult {
    const refund = this.refunds.get(id);
    if (!refund) throw notFound('refund', id);
    return { status: 200, body: refund };
  }

  /** The stand-in's dashboard: the cardholder's bank opens a dispute (`charge.dispute.created`). */
  openDispute(intentId: string, params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['reason', 'amount']);
    const intent = this.findPaymentIntent(intentId);
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined;
    if (intent.status !== 'succeeded' || !charge) {
      throw invalidRequest(`This PaymentIntent (${intent.id}) has no successful charge to dispute.`, { param: 'payment_intent' });
    }
    if (charge.disputed) throw invalidRequest(`Charge ${charge.id} is already disputed.`, { code: 'charge_disputed' });
    const reason = readString(params, 'reason') ?? 'fraudulent';
    const dispute: Dispute = {
      id: randomId('dp'),
      object: 'dispute',
      amount: readInteger(params, 'amount') ?? charge.amount - charge.amount_refunded,
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason,
      status: 'needs_response',
    };
    charge.disputed = true;
    this.disputes.set(dispute.id, dispute);
    this.emit('charge.dispute.created', dispute, context);
    return { status: 200, body: dispute };
  }

  /** The stand-in's dashboard: the bank decides (`charge.dispute.closed`, status won or lost). */
  closeDispute(disputeId: string, params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['status']);
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw notFound('dispute', disputeId);
    const status = readString(params, 'status');
    if (status !== 'won' && status !== 'lost') throw invalidRequest('Invalid status: must be one of won, lost', { param: 'status' });
    if (dispute.status === 'won' || dispute.status === 'lost') {
      throw invalidRequest(`Dispute ${dispute.id} is already closed (${dispute.status}).`, { code: 'dispute_already_closed' });
    }
    dispute.status = status;
    this.emit('charge.dispute.closed', dispute, context);
    return { status: 200, body: dispute };
  }

  retrieveEvent(id: string): ApiResult {
    const event = this.events.get(id);
    if (!event) throw notFound('event', id);
    return { status: 200, body: event };
  }

  private findPaymentIntent(id: string): PaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw notFound('payment_intent', id, 'intent');
    return intent;
  }

  private checkClientSecret(intent: PaymentIntent, params: FormObject): void {
    const secret = readString(params, 'client_secret');
    if (!secret) throw missingParam('client_secret');
    if (secret !== intent.client_secret) {
      throw invalidRequest(
        'The client_secret provided does not match any associated PaymentIntent on this account. Ensure the publishable key used belongs to the same account that created the PaymentIntent.',
        { code: 'payment_intent_invalid_parameter', param: 'client_secret' },
      );
    }
  }

  private runConfirmation(intent: PaymentIntent, paymentMethod: PaymentMethod | undefined, context: RequestContext): ApiResult {
    if (!paymentMethod) {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
        { code: 'payment_intent_unexpected_state' },
      );
    }
    const chargeId = randomId('ch');
    const decline = chargeOutcome(this.cardNumbers.get(paymentMethod.id) ?? '');
    if (decline) return this.failPayment(intent, decline, paymentMethod, chargeId, context);

    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = chargeId;
    this.charges.set(chargeId, newCharge(chargeId, intent, paymentMethod.id));
    intent.payment_method = paymentMethod.id;
    intent.last_payment_error = null;
    this.emit('payment_intent.succeeded', intent, context);
    return { status: 200, body: intent };
  }

  private failPayment(
    intent: PaymentIntent,
    details: CardErrorDetails,
    paymentMethod: PaymentMethod | undefined,
    chargeId: string | undefined,
    context: RequestContext,
  ): ApiResult {
    const error: StripeErrorBody = {
      ...cardErrorBody(details),
      ...(chargeId ? { charge: chargeId } : {}),
      ...(paymentMethod ? { payment_method: paymentMethod } : {}),
    };
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.latest_charge = chargeId ?? intent.latest_charge;
    intent.last_payment_error = error;
    this.emit('payment_intent.payment_failed', intent, context);
    return { status: 402, body: { error: { ...error, payment_intent: intent } } };
  }

  private emit(type: string, object: PaymentIntent | Charge | Refund | Dispute, context: RequestContext): void {
    const intentId = object.object === 'payment_intent' ? object.id : object.payment_intent;
    const event: StripeEvent = {
      id: randomId('evt'),
      object: 'event',
      api_version: this.intentApiVersions.get(intentId) ?? context.apiVersion,
      created: nowSeconds(),
      // A snapshot: later changes to the object must not rewrite an event already sent.
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: context.requestId, idempotency_key: context.idempotencyKey },
      type,
    };
    this.events.set(event.id, event);
    this.listeners.onEvent(event);
  }

  private resolvePaymentMethod(id: string, param: string): PaymentMethod {
    const testCard = TEST_PAYMENT_METHOD_CARDS[id];
    if (testCard !== undefined) {
      const nextYear = new Date().getUTCFullYear() + 1;
      return this.storePaymentMethod({ number: testCard, expMonth: 12, expYear: nextYear, cvc: undefined }, emptyBillingDetails());
    }
    const existing = this.paymentMethods.get(id);
    if (!existing) throw notFound('PaymentMethod', id, param);
    return existing;
  }

  private buildPaymentMethod(params: FormObject, prefix: string): PaymentMethod {
    const path = (key: string): string => (prefix ? `${prefix}[${key}]` : key);
    rejectUnknown(params, ['type', 'card', 'billing_details', 'metadata'], prefix);
    const type = readString(params, 'type', path('type'));
    if (!type) throw missingParam(path('type'));
    if (type !== 'card') {
      throw invalidRequest(`Invalid ${path('type')}: the Stripe stand-in only supports card.`, { param: path('type') });
    }
    const card = readObject(params, 'card', path('card'));
    if (!card) throw missingParam(path('card'));
    rejectUnknown(card, ['number', 'exp_month', 'exp_year', 'cvc'], path('card'));
    const cardPath = (key: string): string => `${path('card')}[${key}]`;
    const number = readString(card, 'number', cardPath('number'));
    if (number === undefined) throw missingParam(cardPath('number'));
    const expMonth = readString(card, 'exp_month', cardPath('exp_month'));
    if (expMonth === undefined) throw missingParam(cardPath('exp_month'));
    const expYear = readString(card, 'exp_year', cardPath('exp_year'));
    if (expYear === undefined) throw missingParam(cardPath('exp_year'));

    const billing = readObject(params, 'billing_details', path('billing_details')) ?? {};
    const billingPath = path('billing_details');
    rejectUnknown(billing, ['address', 'email', 'name', 'phone'], billingPath);
    const billingDetails: PaymentMethod['billing_details'] = {
      address: readAddress(billing, 'address', `${billingPath}[address]`) ?? emptyBillingDetails().address,
      email: readString(billing, 'email', `${billingPath}[email]`) || null,
      name: readString(billing, 'name', `${billingPath}[name]`) || null,
      phone: readString(billing, 'phone', `${billingPath}[phone]`) || null,
      tax_id: null,
    };

    const year = /^\d{2}$/.test(expYear) ? 2000 + Number(expYear) : Number(expYear);
    const details: CardDetails = {
      // Stripe accepts numbers typed with spaces or dashes between the groups.
      number: number.replace(/[\s-]/g, ''),
      expMonth: /^\d{1,2}$/.test(expMonth) ? Number(expMonth) : Number.NaN,
      expYear: /^\d{2}$|^\d{4}$/.test(expYear) ? year : Number.NaN,
      cvc: readString(card, 'cvc', cardPath('cvc')),
    };
    const invalid = validateCard(details, new Date());
    if (invalid) throw new CardValidationError(invalid);
    return this.storePaymentMethod(details, billingDetails, readMetadata(params));
  }

  private storePaymentMethod(
    card: CardDetails,
    billingDetails: PaymentMethod['billing_details'],
    metadata: Record<string, string> = {},
  ): PaymentMethod {
    const brand = cardBrand(card.number);
    const paymentMethod: PaymentMethod = {
      id: randomId('pm'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: billingDetails,
      card: {
        brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: card.cvc === undefined ? null : 'unchecked' },
        country: 'US',
        display_brand: brand,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        fingerprint: createHmac('sha256', this.fingerprintKey).update(card.number).digest('base64url').slice(0, 16),
        funding: 'credit',
        generated_from: null,
        last4: card.number.slice(-4),
        networks: { available: [brand], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: nowSeconds(),
      customer: null,
      livemode: false,
      metadata,
      type: 'card',
    };
    this.paymentMethods.set(paymentMethod.id, paymentMethod);
    this.cardNumbers.set(paymentMethod.id, card.number);
    return paymentMethod;
  }
}

class CardValidationError extends Error {
  constructor(readonly details: CardErrorDetails) {
    super(details.message);
  }
}

function emptyBillingDetails(): PaymentMethod['billing_details'] {
  return {
    address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
    email: null,
    name: null,
    phone: null,
    tax_id: null,
  };
}
