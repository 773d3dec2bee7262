import { atom } from 'nanostores';
import type { InvoiceSummary, VatSummary } from '@boatshop/contract';
import { isApiError, ROUTE_PATHS } from '@boatshop/contract/client';
import { client } from '../api';

// The books of a period as the admin reads them: the documents, and the VAT per country and rate.

export interface Period {
  from: string;
  to: string;
}

export type InvoicesState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; invoices: InvoiceSummary[]; summary: VatSummary }
  | { status: 'failed'; error: string };

export const $invoices = atom<InvoicesState>({ status: 'idle' });

let generation = 0;

export async function loadInvoices(period: Period): Promise<void> {
  generation += 1;
  const mine = generation;
  $invoices.set({ status: 'loading' });
  try {
    const [list, summary] = await Promise.all([
      client.request(ROUTE_PATHS.books.adminInvoices, { query: period }),
      client.request(ROUTE_PATHS.books.adminVatSummary, { query: period }),
    ]);
    if (mine === generation) $invoices.set({ status: 'ready', invoices: list.data, summary });
  } catch (error) {
    if (mine === generation) {
      $invoices.set({ status: 'failed', error: isApiError(error) ? error.message : 'The invoices could not be loaded.' });
    }
  }
}

const query = (period: Period) => new URLSearchParams({ from: period.from, to: period.to }).toString();

export const invoicesCsvUrl = (period: Period) => `/api${ROUTE_PATHS.books.adminInvoicesCsv.path}?${query(period)}`;
export const adminInvoicePdfUrl = (id: string) => `/api/admin/invoices/${id}/pdf`;

/** From the first of this month to today (UTC). */
export function thisMonth(today = new Date()): Period {
  const day = today.toISOString().slice(0, 10);
  return { from: `${day.slice(0, 8)}01`, to: day };
}
