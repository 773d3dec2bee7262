import type { InvoiceKind, InvoiceSnapshot } from '../invoices.table.js';

/** One issued document as the renderers read it: its row's identity and its frozen snapshot. */
export interface InvoiceView {
  number: string;
  kind: InvoiceKind;
  /** YYYY-MM-DD */
  issuedOn: string;
  issuedAt: Date;
  snapshot: InvoiceSnapshot;
}

/** The VAT of a document per category and rate, as both the PDF and the structured invoice show it. */
export function vatBreakdown(view: InvoiceView) {
  const groups = new Map<
    string,
    {
      categoryCode: string;
      exemptionReasonCode: string | null;
      rateBasisPoints: number;
      netCents: number;
      vatCents: number;
      wording: string;
    }
  >();
  for (const line of view.snapshot.lines) {
    const key = `${line.categoryCode}:${line.rateBasisPoints}`;
    const group = groups.get(key);
    if (group) {
      group.netCents += line.netCents;
      group.vatCents += line.vatCents;
    } else {
      groups.set(key, {
        categoryCode: line.categoryCode,
        exemptionReasonCode: line.exemptionReasonCode,
        rateBasisPoints: line.rateBasisPoints,
        netCents: line.netCents,
        vatCents: line.vatCents,
        wording: line.wording,
      });
    }
  }
  return [...groups.values()];
}

export function totalsOf(view: InvoiceView) {
  const netCents = view.snapshot.lines.reduce((sum, line) => sum + line.netCents, 0);
  const vatCents = view.snapshot.lines.reduce((sum, line) => sum + line.vatCents, 0);
  const prepaidCents = view.snapshot.advances.reduce((sum, advance) => sum + advance.totalCents, 0);
  return { netCents, vatCents, totalCents: netCents + vatCents, prepaidCents, dueCents: netCents + vatCents - prepaidCents };
}

/** The legal wordings of the document, each once (exemption, reverse charge, margin, new means of transport). */
export const wordingsOf = (view: InvoiceView) => [...new Set(view.snapshot.lines.map((line) => line.wording).filter(Boolean))];

/** A line's label on the document: what was sold, and what the document covers of it. */
export function lineLabel(view: InvoiceView, description: string): string {
  if (view.kind === 'advance') return `Advance payment for ${description}`;
  if (view.kind === 'credit_note') return `Credit for ${description}`;
  return description;
}
