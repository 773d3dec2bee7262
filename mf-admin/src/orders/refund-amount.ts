import { formatPrice } from '@boatshop/state';
import { parseEuroToCents } from '../products/price';

export type ParsedRefund = { ok: true; cents: number } | { ok: false; message: string };

/**
 * The refund field's text as integer cents, read by the product form's price rules (euros,
 * a dot or a comma before at most 2 decimals, never through a float), then held between one
 * cent and what can still be refunded. The API checks the same bound again.
 */
export function parseRefundAmount(text: string, refundableCents: number): ParsedRefund {
  const parsed = parseEuroToCents(text);
  if (!parsed.ok) return { ok: false, message: 'Enter the amount in euros, with at most 2 decimals (for example 1000.50)' };
  if (parsed.cents < 1) return { ok: false, message: 'Enter an amount above 0,00 €' };
  if (parsed.cents > refundableCents) return { ok: false, message: `At most ${formatPrice(refundableCents)} can be refunded` };
  return parsed;
}
