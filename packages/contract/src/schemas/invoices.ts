import { Type, type Static } from '@sinclair/typebox';
import { DATE_PATTERN, Nullable } from './common.js';

// Invoices and credit notes (books): the shopper's documents of an order, the admin's list by
// period, its CSV export and the VAT summary per country and rate.

export const INVOICE_KINDS = ['invoice', 'advance', 'final', 'credit_note'] as const;

export const InvoiceSummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    number: Type.String({ description: '2026-000123, CN-2026-000007' }),
    kind: Type.Unsafe<(typeof INVOICE_KINDS)[number]>({
      type: 'string',
      enum: [...INVOICE_KINDS],
      description: 'invoice (card order), advance (deposit, part payment), final (deducts the advances), credit_note',
    }),
    orderId: Type.String({ format: 'uuid' }),
    issuedOn: Type.String({ pattern: DATE_PATTERN }),
    netCents: Type.Integer(),
    vatCents: Type.Integer(),
    totalCents: Type.Integer(),
    vatCase: Type.String(),
    buyerCountry: Type.String(),
    buyerVatId: Nullable(Type.String()),
    /** a credit note: the invoice it corrects */
    correctsNumber: Nullable(Type.String()),
  },
  { title: 'InvoiceSummary' },
);
export type InvoiceSummary = Static<typeof InvoiceSummarySchema>;

export const InvoiceListSchema = Type.Object({ data: Type.Array(InvoiceSummarySchema) }, { title: 'InvoiceList' });
export type InvoiceList = Static<typeof InvoiceListSchema>;

export const OrderInvoicesQuerySchema = Type.Object({ orderId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export type OrderInvoicesQuery = Static<typeof OrderInvoicesQuerySchema>;

/** A period of issue days, both included (UTC), at most a year. */
export const InvoicePeriodQuerySchema = Type.Object(
  { from: Type.String({ pattern: DATE_PATTERN }), to: Type.String({ pattern: DATE_PATTERN }) },
  { additionalProperties: false },
);
export type InvoicePeriodQuery = Static<typeof InvoicePeriodQuerySchema>;

/** The document's file: PDF/A-3 with the EN 16931 XML embedded (application/pdf). */
export const InvoicePdfSchema = Type.Unsafe<Uint8Array>({ type: 'string', description: 'application/pdf' });

/** The period's documents as CSV (text/csv), one line each, credit notes negative. */
export const InvoiceCsvSchema = Type.String({ description: 'text/csv' });

export const VatSummaryRowSchema = Type.Object({
  /** the country whose VAT is charged; for an exempt supply the buyer's */
  country: Type.String(),
  rateBasisPoints: Type.Integer(),
  vatCase: Type.String(),
  netCents: Type.Integer(),
  vatCents: Type.Integer(),
  totalCents: Type.Integer(),
  documents: Type.Integer(),
});
export type VatSummaryRow = Static<typeof VatSummaryRowSchema>;

export const VatSummarySchema = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    rows: Type.Array(VatSummaryRowSchema),
    netCents: Type.Integer(),
    vatCents: Type.Integer(),
    totalCents: Type.Integer(),
  },
  { title: 'VatSummary' },
);
export type VatSummary = Static<typeof VatSummarySchema>;
