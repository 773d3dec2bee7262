import type { ViesConfig } from '../../config.js';
import type { ViesResult } from './vat-decision.js';

// The VIES adapter: asks the Commission's VIES REST API (or the dev-services stand-in, same
// protocol) whether a VAT ID is valid. It fails closed: a timeout, a network error, an
// unavailable member state or an answer it cannot read is 'unavailable', never 'valid'.

export interface ViesCheck {
  result: Exclude<ViesResult, 'not_checked'>;
  /** VIES's requestIdentifier: proof of the check for the tax office; null unless valid */
  consultationNumber: string | null;
  /** the trader's name and address as the member state registered them, when it tells */
  name: string | null;
  address: string | null;
}

/** A VAT ID as VIES reads it: country prefix (EL for Greece) and the number, no spaces or dots. */
export function splitVatId(vatId: string): { countryCode: string; vatNumber: string } | null {
  const compact = vatId.replace(/[\s.-]/g, '').toUpperCase();
  const match = /^([A-Z]{2})([0-9A-Z+*]{2,12})$/.exec(compact);
  return match ? { countryCode: match[1]!, vatNumber: match[2]! } : null;
}

/** The VAT ID's prefix as a country code (VAT IDs say EL for Greece). */
export function vatIdCountry(countryCode: string): string {
  return countryCode === 'EL' ? 'GR' : countryCode;
}

interface ViesAnswer {
  valid?: unknown;
  requestIdentifier?: unknown;
  name?: unknown;
  address?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() && value.trim() !== '---' ? value.trim() : null);

/** Checks a buyer's VAT ID, naming the seller as the requester so VIES hands out a consultation number. */
export async function checkVatId(config: ViesConfig, sellerVatId: string, buyerVatId: string): Promise<ViesCheck> {
  const buyer = splitVatId(buyerVatId);
  if (!buyer) return { result: 'invalid', consultationNumber: null, name: null, address: null };
  const requester = splitVatId(sellerVatId);
  let answer: ViesAnswer & { actionSucceed?: unknown };
  try {
    const response = await fetch(`${config.apiBase}/check-vat-number`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        ...buyer,
        ...(requester ? { requesterMemberStateCode: requester.countryCode, requesterNumber: requester.vatNumber } : {}),
      }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    // VIES refuses a malformed number with 400 INVALID_INPUT: that number is not valid.
    if (response.status === 400) return { result: 'invalid', consultationNumber: null, name: null, address: null };
    if (!response.ok) return unavailable();
    answer = (await response.json()) as typeof answer;
  } catch {
    return unavailable();
  }
  if (answer.actionSucceed === false || typeof answer.valid !== 'boolean') return unavailable();
  if (!answer.valid) return { result: 'invalid', consultationNumber: null, name: null, address: null };
  return { result: 'valid', consultationNumber: text(answer.requestIdentifier), name: text(answer.name), address: text(answer.address) };
}

function unavailable(): ViesCheck {
  return { result: 'unavailable', consultationNumber: null, name: null, address: null };
}
