import type { NamedAddress } from '@boatshop/contract';
import { PROVIDER_UNREACHABLE, type CardResult } from './card-payment';

export interface CardInput {
  number: string;
  /** as typed: MM/YY, MM / YYYY or MMYY */
  expiry: string;
  cvc: string;
}

/** Splits what was typed in the expiry field; anything else is passed on for the provider to name. */
export function parseExpiry(expiry: string): { month: string; year: string } {
  const digits = expiry.replace(/\D/g, '');
  if (digits.length === 4 || digits.length === 6) return { month: digits.slice(0, 2), year: digits.slice(2) };
  const [month = '', year = ''] = expiry.split('/').map((part) => part.trim());
  return { month, year };
}

/**
 * What Stripe.js's confirmCardPayment does, against the local stand-in: one form-encoded POST to
 * /v1/payment_intents/:id/confirm with the publishable key, the client secret and the card.
 */
export async function confirmWithLocalStandIn(
  settings: { localApiBase: string; publishableKey: string },
  clientSecret: string,
  card: CardInput,
  billing: NamedAddress,
): Promise<CardResult> {
  const intentId = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
  const { month, year } = parseExpiry(card.expiry);
  const { address } = billing;
  const form = new URLSearchParams({
    key: settings.publishableKey,
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': card.number.replace(/[\s-]/g, ''),
    'payment_method_data[card][exp_month]': month,
    'payment_method_data[card][exp_year]': year,
    'payment_method_data[card][cvc]': card.cvc.trim(),
    'payment_method_data[billing_details][name]': billing.name,
    'payment_method_data[billing_details][address][line1]': address.line1,
    'payment_method_data[billing_details][address][city]': address.city,
    'payment_method_data[billing_details][address][state]': address.state,
    'payment_method_data[billing_details][address][postal_code]': address.postal_code,
    'payment_method_data[billing_details][address][country]': address.country,
  });

  let response: Response;
  try {
    response = await fetch(`${settings.localApiBase}/v1/payment_intents/${encodeURIComponent(intentId)}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
  } catch (error) {
    console.warn('The local card service did not answer', error);
    return { ok: false, message: PROVIDER_UNREACHABLE };
  }
  const body = (await response.json().catch(() => null)) as { status?: string; error?: { message?: string } } | null;
  if (response.ok && body?.status === 'succeeded') return { ok: true };
  return { ok: false, message: body?.error?.message ?? PROVIDER_UNREACHABLE };
}
