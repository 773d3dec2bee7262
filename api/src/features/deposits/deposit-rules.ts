import type { DepositsConfig } from '../../config.js';

// Deposit arithmetic and the structured creditor reference (ISO 11649) of a deposit order.
// Pure functions: money in integer cents, big totals as bigint so nothing is lost above 2^53.

export interface DepositQuote {
  totalCents: number;
  cardLimitCents: number;
  /** the shopper may reserve with a deposit */
  depositOffered: boolean;
  /** the total is above the card limit: a deposit is the only way to buy */
  depositRequired: boolean;
  /** what the card pays now when reserving; null when no deposit is offered */
  depositCents: number | null;
  balanceDueDays: number;
}

/**
 * round(total × percent / 100) to whole euros, half up; at least 1 €, never above the card limit
 * (in whole euros) and never above the total itself.
 */
export function depositCents(totalCents: bigint | number, percent: number, cardLimitCents: number): number {
  const total = BigInt(totalCents);
  if (total <= 0n) return 0;
  // euros = total × percent / 10000, half up: floor((total × percent + 5000) / 10000)
  let euros = (total * BigInt(percent) + 5000n) / 10000n;
  if (euros < 1n) euros = 1n;
  const limitEuros = BigInt(Math.floor(cardLimitCents / 100));
  if (euros > limitEuros) euros = limitEuros;
  let cents = euros * 100n;
  if (cents > total) cents = total;
  return Number(cents);
}

export function quoteDeposit(
  input: { totalCents: bigint | number; categories: readonly string[] },
  config: Pick<DepositsConfig, 'cardLimitCents' | 'percent' | 'categories' | 'balanceDueDays'>,
): DepositQuote {
  const total = BigInt(input.totalCents);
  const depositRequired = total > BigInt(config.cardLimitCents);
  const depositOffered = depositRequired || input.categories.some((category) => config.categories.includes(category));
  return {
    totalCents: Number(total),
    cardLimitCents: config.cardLimitCents,
    depositOffered,
    depositRequired,
    depositCents: depositOffered ? depositCents(total, config.percent, config.cardLimitCents) : null,
    balanceDueDays: config.balanceDueDays,
  };
}

// ---------------------------------------------------------------------------------------------
// ISO 11649 creditor reference: "RF", two check digits, then 1..21 letters and digits. The check
// digits make ISO 7064 MOD 97-10 of (body + "RF" + digits), letters as 10..35, equal 1.

const BODY = /^[0-9A-Z]{1,21}$/;

function mod97(alnum: string): number {
  let remainder = 0;
  for (const char of alnum) {
    const code = char.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** The reference for `body` (1..21 letters or digits), e.g. "539007547034" → "RF18539007547034". */
export function creditorReference(body: string): string {
  const upper = body.toUpperCase();
  if (!BODY.test(upper)) throw new Error(`A creditor reference body is 1 to 21 letters or digits, got "${body}"`);
  const check = 98 - mod97(`${upper}RF00`);
  return `RF${String(check).padStart(2, '0')}${upper}`;
}

/** Spaces removed, upper case: how a reference typed from a bank statement is compared. */
export function normalizeReference(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** A well-formed RF reference whose check digits match. */
export function isValidCreditorReference(value: string): boolean {
  const ref = normalizeReference(value);
  if (!/^RF[0-9]{2}[0-9A-Z]{1,21}$/.test(ref)) return false;
  return mod97(`${ref.slice(4)}${ref.slice(0, 4)}`) === 1;
}

/** The order's reference: 64 random bits of its uuid as a decimal number (at most 20 digits). */
export function orderCreditorReference(orderId: string): string {
  const hex = orderId.replace(/-/g, '').slice(0, 16);
  return creditorReference(BigInt(`0x${hex}`).toString(10));
}

/** In groups of four, as banks print it: "RF18 5390 0754 7034". */
export function formatReference(reference: string): string {
  return normalizeReference(reference).replace(/(.{4})(?=.)/g, '$1 ');
}

/** YYYY-MM-DD `days` after `from` (UTC). */
export function addDays(from: Date, days: number): string {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days)).toISOString().slice(0, 10);
}
