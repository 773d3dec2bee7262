import type { SellerConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { todayUtc } from '../vat/buyer-checks.js';
import { orderVat } from '../vat/order-vat.js';
import { settleCorrectionRefund } from '../vat/correction-refunds.js';
import { invoiceParties, invoiceSeller } from './seller.js';
import { buildSnapshot } from './snapshot.js';
import { takeInvoiceNumber, type InvoiceSeries } from './invoice-numbers.js';
import type { InvoiceKind } from './invoices.table.js';

// The books' one entry point from the money paths: each event that moves money calls
// recordMoneyEventDocument once, inside the transaction that records the event, and gets the
// document that event needs (an advance invoice, an invoice, a final invoice, a credit note),
// numbered in that same transaction. Calling it again for the same event returns the same document.

export type BooksMoneyEvent =
  | { type: 'deposit_received'; orderId: string; paymentId: string; amountCents: number }
  | { type: 'order_paid_by_card'; orderId: string; paymentId: string; amountCents: number }
  | { type: 'balance_paid_by_transfer'; orderId: string; paymentId: string; amountCents: number }
  | { type: 'refund'; orderId: string; refundId: string; amountCents: number }
  | { type: 'cancellation'; orderId: string; amountCents: number }
  // a VAT correction (vat/vat-correction.ts): one invoice credited in full, then issued again
  | { type: 'vat_correction_credit'; orderId: string; invoiceId: string; amountCents: number }
  | { type: 'vat_correction_reissue'; orderId: string; invoiceId: string; kind: 'advance' | 'invoice' | 'final'; amountCents: number };

export interface IssuedDocument {
  id: string;
  number: string;
  kind: InvoiceKind;
  totalCents: number;
}

function eventKey(event: BooksMoneyEvent): string {
  switch (event.type) {
    case 'deposit_received':
    case 'order_paid_by_card':
    case 'balance_paid_by_transfer':
      return `${event.type}:${event.paymentId}`;
    case 'refund':
      return `refund:${event.refundId}`;
    case 'cancellation':
      return `cancellation:${event.orderId}`;
    case 'vat_correction_credit':
      return `vat-correction:credit:${event.invoiceId}`;
    case 'vat_correction_reissue':
      return `vat-correction:reissue:${event.invoiceId}`;
  }
}

const KIND: Record<Exclude<BooksMoneyEvent['type'], 'vat_correction_reissue'>, InvoiceKind> = {
  deposit_received: 'advance',
  order_paid_by_card: 'invoice',
  balance_paid_by_transfer: 'final',
  refund: 'credit_note',
  cancellation: 'credit_note',
  vat_correction_credit: 'credit_note',
};

/**
 * The document a money event needs, numbered and stored in the caller's transaction (which must
 * be the event's own). An amount is split into net and VAT in the proportion the order's VAT
 * decision gives, so a deposit follows the treatment of the sale. A cancellation or refund of an
 * order that has no invoice yet needs no credit note: null.
 */
export async function recordMoneyEventDocument(trx: Db, seller: SellerConfig, event: BooksMoneyEvent): Promise<IssuedDocument | null> {
  // The order's row lock orders concurrent events of one order, before the counter's lock.
  const order = await trx.selectFrom('orders').select('id').where('id', '=', event.orderId).forUpdate().executeTakeFirstOrThrow();
  const key = eventKey(event);
  const existing = await trx
    .selectFrom('invoices')
    .select(['id', 'number', 'kind', 'total_cents'])
    .where('event_key', '=', key)
    .executeTakeFirst();
  if (existing) return { id: existing.id, number: existing.number, kind: existing.kind, totalCents: existing.total_cents };

  const kind = event.type === 'vat_correction_reissue' ? event.kind : KIND[event.type];
  let corrects: string | null = event.type === 'vat_correction_credit' ? event.invoiceId : null;
  if (kind === 'credit_note' && corrects === null) {
    const invoice = await trx
      .selectFrom('invoices')
      .select('id')
      .where('order_id', '=', order.id)
      .where('kind', '!=', 'credit_note')
      .orderBy('issued_at', 'desc')
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!invoice) return null;
    corrects = invoice.id;
  }

  const day = todayUtc();
  const vat = await orderVat(trx, seller, order.id);
  const main = vat.lines.reduce((largest, line) => (line.totalCents > largest.totalCents ? line : largest), vat.lines[0]!);
  // A final invoice covers the whole supply (the advances are deducted when it is shown); the
  // others cover the amount that moved, split over the order's lines in proportion.
  const snapshot = await buildSnapshot(trx, {
    seller,
    bank: invoiceParties().bank,
    orderId: order.id,
    kind,
    vat,
    amountCents: event.amountCents,
    correctsInvoiceId: corrects,
    eventOn: day,
  });
  const totalCents = snapshot.lines.reduce((sum, line) => sum + line.totalCents, 0);
  const vatCents = snapshot.lines.reduce((sum, line) => sum + line.vatCents, 0);
  const series: InvoiceSeries = kind === 'credit_note' ? 'credit_note' : 'invoice';
  const number = await takeInvoiceNumber(trx, series, Number(day.slice(0, 4)));
  const row = await trx
    .insertInto('invoices')
    .values({
      number: number.number,
      series,
      year: number.year,
      sequence: number.sequence,
      kind,
      order_id: order.id,
      event_key: key,
      corrects_invoice_id: corrects,
      vat_case: main.vatCase,
      vat_country: main.vatCountry,
      rate_basis_points: main.rateBasisPoints,
      net_cents: totalCents - vatCents,
      vat_cents: vatCents,
      total_cents: totalCents,
      wording: main.wording,
      buyer_country: vat.buyer.country,
      snapshot: JSON.stringify(snapshot),
      buyer_vat_id: vat.check?.vat_id ?? null,
    })
    .returning(['id', 'number', 'kind', 'total_cents'])
    .executeTakeFirstOrThrow();
  return { id: row.id, number: row.number, kind: row.kind, totalCents: row.total_cents };
}

/**
 * A payment received, once the order has been settled in the same transaction: the payment that
 * completes the order gets the invoice (the final invoice when advances were invoiced before),
 * any payment before that (a deposit, a part of the balance) an advance invoice.
 */
export async function recordPaymentDocument(
  trx: Db,
  payment: { orderId: string; paymentId: string; amountCents: number; method: 'card' | 'bank_transfer' },
): Promise<IssuedDocument | null> {
  const order = await trx.selectFrom('orders').select('status').where('id', '=', payment.orderId).forUpdate().executeTakeFirstOrThrow();
  const { orderId, paymentId, amountCents } = payment;
  if (order.status !== 'paid') {
    return recordMoneyEventDocument(trx, invoiceSeller(), { type: 'deposit_received', orderId, paymentId, amountCents });
  }
  const advance = await trx
    .selectFrom('invoices')
    .select('id')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'advance')
    .executeTakeFirst();
  const type = advance ? 'balance_paid_by_transfer' : 'order_paid_by_card';
  return recordMoneyEventDocument(trx, invoiceSeller(), { type, orderId, paymentId, amountCents });
}

/**
 * Money sent back (a card refund, a bank refund, a cancellation's refund): its credit note. A
 * refund paying back what a VAT correction found owed is documented by the correction's credit
 * notes already: only the part beyond it gets one.
 */
export async function recordRefundDocument(
  trx: Db,
  refund: { orderId: string; refundId: string; amountCents: number; cancellation?: boolean },
): Promise<IssuedDocument | null> {
  if (refund.cancellation) {
    return recordMoneyEventDocument(trx, invoiceSeller(), {
      type: 'cancellation',
      orderId: refund.orderId,
      amountCents: refund.amountCents,
    });
  }
  const amountCents = await settleCorrectionRefund(trx, {
    orderId: refund.orderId,
    refundKey: refund.refundId,
    amountCents: refund.amountCents,
  });
  if (amountCents <= 0) return null;
  return recordMoneyEventDocument(trx, invoiceSeller(), {
    type: 'refund',
    orderId: refund.orderId,
    refundId: refund.refundId,
    amountCents,
  });
}
