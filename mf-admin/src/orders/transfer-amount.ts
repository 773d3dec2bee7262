import { parseEuroToCents } from '../products/price';

export type ParsedTransfer = { ok: true; cents: number } | { ok: false; message: string };

/**
 * The transfer field's text as integer cents, by the product form's price rules (euros, a dot or
 * a comma before at most 2 decimals, never through a float), and above 0. Whether it is more than
 * is still due is the API's to say (422 OVERPAYMENT), in the dialog.
 */
export function parseTransferAmount(text: string): ParsedTransfer {
  const parsed = parseEuroToCents(text);
  if (!parsed.ok) return { ok: false, message: 'Enter the amount in euros, with at most 2 decimals (for example 2601000.00)' };
  if (parsed.cents < 1) return { ok: false, message: 'Enter an amount above 0,00 €' };
  return parsed;
}

/** Today in the admin's own calendar, as `YYYY-MM-DD` (what a date input holds). */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
