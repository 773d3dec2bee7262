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
  /** what the document says, frozen when it is issued (null for documents issued before) */
  snapshot: ColumnType<InvoiceSnapshot | null, string | null | undefined, never>;
}

export interface SnapshotParty {
  name: string;
  addressLines: string[];
  country: string;
  vatId: string | null;
  taxNumber?: string | null;
}

export interface SnapshotLine {
  description: string;
  quantity: number;
  vatCase: string;
  /** EN 16931 VAT category: S, K, G, E, O */
  categoryCode: string;
  exemptionReasonCode: string | null;
  rateBasisPoints: number;
  netCents: number;
  vatCents: number;
  totalCents: number;
  showsVat: boolean;
  wording: string;
}

/** An earlier document this one refers to: an advance a final invoice deducts, the invoice a credit note corrects. */
export interface SnapshotReference {
  number: string;
  issuedOn: string;
  netCents: number;
  vatCents: number;
  totalCents: number;
}

export interface InvoiceSnapshot {
  seller: SnapshotParty;
  buyer: SnapshotParty & { type: 'consumer' | 'business'; viesConsultationNumber: string | null };
  bank: { accountHolder: string; iban: string; bic: string } | null;
  orderId: string;
  orderedOn: string;
  /** YYYY-MM-DD: the day the money moved (the supply's day for the invoice of a paid order) */
  eventOn: string;
  lines: SnapshotLine[];
  /** a final invoice: the advance invoices it deducts */
  advances: SnapshotReference[];
  /** a credit note: the invoice it corrects */
  corrects: SnapshotReference | null;
  /** what the document asks or acknowledges: total less the advances deducted */
  amountDueCents: number;
}

export interface InvoiceDocumentsTable {
  invoice_id: string;
  media_type: string;
  file_name: string;
  content: Uint8Array;
  sha256: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}
