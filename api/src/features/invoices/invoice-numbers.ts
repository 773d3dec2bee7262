import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

// Invoice numbers without gaps: one counter row per series and year, incremented by the money
// event's own transaction. The row lock makes concurrent events wait for each other, and a
// transaction that rolls back takes its increment with it, so no number is skipped or used twice.

export type InvoiceSeries = 'invoice' | 'credit_note';

/** How each series writes its numbers: 2026-000123 and CN-2026-000007. */
export function formatInvoiceNumber(series: InvoiceSeries, year: number, sequence: number): string {
  const body = `${year}-${String(sequence).padStart(6, '0')}`;
  return series === 'credit_note' ? `CN-${body}` : body;
}

/** The next number of a series in a year. Call it inside the transaction that records the document. */
export async function takeInvoiceNumber(trx: Db, series: InvoiceSeries, year: number) {
  const row = await trx
    .insertInto('invoice_counters')
    .values({ series, year, last_number: 1 })
    .onConflict((oc) => oc.columns(['series', 'year']).doUpdateSet({ last_number: sql<number>`invoice_counters.last_number + 1` }))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return { series, year, sequence: row.last_number, number: formatInvoiceNumber(series, year, row.last_number) };
}
