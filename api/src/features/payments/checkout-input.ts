import { isUuid, type NamedAddressInput } from '@boatshop/contract';
import type { CartLine } from '../orders/orders.write-repository.js';
import type { DepositQuote } from '../deposits/deposit-rules.js';
// offers: an accepted offer is paid through this checkout at its agreed price
import { lockPayableOffer, type PayableOffer } from '../offers/offers.repository.js';
import { ApiError, badRequest, notFound } from '../../lib/errors.js';
import type { Db } from '../../db/database.js';
import { formatEuro } from '../../lib/money.js';

// What the checkout routes make of the browser's request before pricing it, and their refusals.

/** Totals beyond this cannot be carried exactly in a JSON number: refused, whatever the mode. */
export const MAX_ORDER_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

export function tooLarge(quote: DepositQuote): ApiError {
  const total = formatEuro(quote.totalCents);
  const limit = formatEuro(quote.cardLimitCents);
  const message = quote.depositOffered
    ? `Card payments are limited to ${limit}; this order comes to ${total}. Reserve it with a deposit of ${formatEuro(quote.depositCents!)} by card and pay the balance by bank transfer. Nothing was charged.`
    : `Card payments are limited to ${limit} per order; this order comes to ${total}. Nothing was charged.`;
  return new ApiError(422, 'AMOUNT_TOO_LARGE', message, { totalCents: quote.totalCents });
}

export function pricesChanged(totalCents: bigint, productsMissing: boolean): ApiError {
  return new ApiError(409, 'PRICES_CHANGED', `Prices changed: the new total is ${formatEuro(totalCents)}.`, {
    totalCents: Number(totalCents),
    ...(productsMissing ? { details: ['A product in your cart is no longer sold.'] } : {}),
  });
}

/** The same product twice in a request is one line with both quantities. */
export function mergeLines(items: CartLine[]): CartLine[] {
  const quantities = new Map<string, number>();
  for (const { productId, quantity } of items) {
    const id = productId.toLowerCase();
    quantities.set(id, (quantities.get(id) ?? 0) + quantity);
  }
  // Sorted: the same cart in another order of lines is the same checkout (checkoutKey).
  return [...quantities].sort(([a], [b]) => (a < b ? -1 : 1)).map(([productId, quantity]) => ({ productId, quantity }));
}

export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function trimAddress(input: NamedAddressInput): NamedAddressInput {
  const { address } = input;
  // A lone UTF-16 surrogate survives JSON.parse but not PostgreSQL's jsonb (a 500 otherwise).
  if ([input.name, ...Object.values(address)].some((text) => LONE_SURROGATE.test(text))) {
    throw badRequest('Invalid request: the address holds a broken character (a lone UTF-16 surrogate)');
  }
  return {
    name: input.name.trim(),
    address: {
      line1: address.line1.trim(),
      city: address.city.trim(),
      state: address.state.trim(),
      postal_code: address.postal_code.trim(),
      country: address.country,
    },
  };
}

/** An offer's id in a checkout request: its own, accepted and valid, for the request's one line. */
export async function payableOffer(db: Db, userId: string, offerId: string, lines: CartLine[]): Promise<PayableOffer> {
  if (!isUuid(offerId)) throw notFound('Offer not found');
  return lockPayableOffer(db, userId, offerId, lines);
}

export const agreedPriceOf = (offer: PayableOffer) => ({
  offerId: offer.id,
  productId: offer.productId,
  unitPriceCents: offer.unitPriceCents,
});
