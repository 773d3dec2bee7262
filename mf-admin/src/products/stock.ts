export type StockParse = { ok: true; stock: number | null } | { ok: false; message: string };

export const STOCK_MESSAGE = 'Stock must be a whole number of 0 or more, or empty for built to order';

/** The stock field: empty is a model built to order (null, unlimited); otherwise whole units, 0 or more. */
export function parseStock(text: string): StockParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, stock: null };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: STOCK_MESSAGE };
  return { ok: true, stock: Number(trimmed) };
}
