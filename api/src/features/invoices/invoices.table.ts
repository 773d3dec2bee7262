import type { ColumnType, Generated } from 'kysely';

export interface InvoiceCountersTable {
  series: string;
  year: number;
  last_number: number;
}

export type InvoiceKind = 'advance' | 'final' | 'invoice' | 'credit_note';

export interface InvoicesTable {
  id: Generated<string>;
  /** 2026-000123 (invoices), CN-2026-000007 (credit notes) */
  number: string;
  series: string;
  year: number;
  sequence: number;
  kind: InvoiceKind;
  order_id: string;
  event_key: string;
  corrects_invoice_id: string | null;
  issued_at: ColumnType<Date, Date | undefined, never>;
  vat_case: string;
  vat_country: string | null;
  rate_basis_points: number;
  net_cents: number;
  vat_cents: number;
  total_cents: number;
  wording: Generated<string>;
  buyer_country: string;
  buyer_vat_id: string | null;
}
