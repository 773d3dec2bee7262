// Reading the form parameters of a request to the Stripe stand-in, with Stripe's rules and
// error messages: unknown parameters, wrong types, metadata, addresses and shipping.

import { invalidRequest, missingParam, unknownParam } from './stripe-errors.js';
import type { FormObject, FormValue } from './stripe-form.js';
import type { Address, PaymentIntent, Shipping } from './stripe-objects.js';

/** Smallest and largest amounts Stripe accepts per currency, in minor units. */
export const CURRENCY_LIMITS: Record<string, { min: number; max: number }> = {
  eur: { min: 50, max: 99_999_999 },
  usd: { min: 50, max: 99_999_999 },
  gbp: { min: 30, max: 99_999_999 },
  chf: { min: 50, max: 99_999_999 },
};

/** Fields Stripe.js adds to browser requests for its own telemetry; the API ignores them. */
const STRIPE_JS_FIELDS = ['_stripe_version', 'payment_user_agent', 'time_on_page', 'guid', 'muid', 'sid', 'referrer', 'use_stripe_sdk'];

export function rejectUnknown(params: FormObject, allowed: readonly string[], prefix = ''): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw unknownParam(prefix ? `${prefix}[${key}]` : key);
  }
}

export function readString(params: FormObject, key: string, path = key): string | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${path}`, { code: 'parameter_invalid_string', param: path });
  return value;
}

export function readObject(params: FormObject, key: string, path = key): FormObject | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' || Array.isArray(value)) {
    throw invalidRequest(`Invalid object`, { code: 'parameter_invalid_object', param: path });
  }
  return value;
}

export function readStringList(params: FormObject, key: string): string[] | undefined {
  const value: FormValue | undefined = params[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalidRequest(`Invalid array`, { code: 'parameter_invalid_array', param: key });
  return value.filter((item): item is string => typeof item === 'string');
}

export function readInteger(params: FormObject, key: string, path = key): number | undefined {
  const value = readString(params, key, path);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw invalidRequest(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: path });
  }
  return Number(value);
}

export function readBoolean(params: FormObject, key: string): boolean | undefined {
  const value = readString(params, key);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') {
    throw invalidRequest(`Invalid boolean: ${value}`, { code: 'parameter_invalid_boolean', param: key });
  }
  return value === 'true';
}

export function readMetadata(params: FormObject, existing: Record<string, string> = {}): Record<string, string> {
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

export function readAddress(params: FormObject, key: string, path: string): Address | undefined {
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

export function readShipping(params: FormObject): Shipping | undefined {
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
export function rejectExpand(params: FormObject): void {
  const expand = readStringList(params, 'expand');
  const first = expand?.[0];
  if (first !== undefined) throw invalidRequest(`This property cannot be expanded (${first}).`, { param: 'expand' });
}

export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}

export function withoutStripeJsFields(params: FormObject): FormObject {
  const rest = { ...params };
  for (const field of STRIPE_JS_FIELDS) delete rest[field];
  return rest;
}

export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'];
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'];

/** A browser (publishable key) names the intent's client secret, as Stripe.js does. */
export function checkClientSecret(intent: PaymentIntent, params: FormObject): void {
  const secret = readString(params, 'client_secret');
  if (!secret) throw missingParam('client_secret');
  if (secret !== intent.client_secret) {
    throw invalidRequest(
      'The client_secret provided does not match any associated PaymentIntent on this account. Ensure the publishable key used belongs to the same account that created the PaymentIntent.',
      { code: 'payment_intent_invalid_parameter', param: 'client_secret' },
    );
  }
}
