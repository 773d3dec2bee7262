import type { InvoiceKind } from '../invoices.table.js';

// How documents write amounts, rates and dates: 2.890.000,00 €, 20,00 %, 26/11/2026.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

export const euros = (cents: number) => euro.format(cents / 100);

export const percent = (basisPoints: number) => `${(basisPoints / 100).toFixed(2).replace('.', ',')} %`;

/** YYYY-MM-DD as DD/MM/YYYY. */
export const day = (isoDay: string) => isoDay.split('-').reverse().join('/');

/** Cents as the structured invoice writes amounts: 2890000.00. */
export const decimal = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

export const TITLES: Record<InvoiceKind, string> = {
  invoice: 'Invoice',
  advance: 'Advance payment invoice',
  final: 'Final invoice',
  credit_note: 'Credit note',
};
