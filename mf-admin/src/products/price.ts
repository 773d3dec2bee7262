/** Euros with a dot or a comma before at most two decimals: "1250", "1250.5", "1250,50". */
const EURO_AMOUNT = /^(\d+)(?:[.,](\d{1,2}))?$/;
// More integer digits than this and the cents would leave the range a double holds exactly.
const MAX_EURO_DIGITS = 13;

export type ParsedPrice = { ok: true; cents: number } | { ok: false; message: string };

/**
 * The price field's text as integer cents, computed from the digits rather than through a
 * float (parseFloat('19.99') * 100 is 1998.9999999999998). Range rules are the API's to tell.
 */
export function parseEuroToCents(text: string): ParsedPrice {
  const match = EURO_AMOUNT.exec(text.trim());
  if (!match) {
    return { ok: false, message: 'Enter the price in euros, with at most 2 decimals (for example 1250.50)' };
  }
  const euros = match[1]!.replace(/^0+(?=\d)/, '');
  if (euros.length > MAX_EURO_DIGITS) return { ok: false, message: 'Price must be at most 100.000.000,00 €' };
  const cents = (match[2] ?? '').padEnd(2, '0');
  return { ok: true, cents: Number(euros) * 100 + Number(cents) };
}

/** Cents as the price field shows them: "425000" for whole euros, else "399.50". */
export function centsToEuroText(cents: number): string {
  const euros = Math.trunc(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(euros) : `${euros}.${String(rest).padStart(2, '0')}`;
}
