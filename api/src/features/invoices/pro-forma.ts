import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { normalizeReference } from '../deposits/deposit-rules.js';
import type { NamedAddressJson } from '../orders/orders.table.js';
import { invoiceParties, type InvoiceBank } from './seller.js';
import type { SellerConfig } from '../../config.js';

// The pro-forma of a reserved deposit order: a payment request for the balance still owed, with
// the shop's account, the order's RF creditor reference, the due date and an EPC QR code
// (GiroCode) a banking app scans. It is not an invoice: it has no number, issues nothing and is
// rendered afresh on each request from what the ledger says is still owed; the final invoice
// follows when the transfer arrives.

export interface ProForma {
  orderId: string;
  /** YYYY-MM-DD */
  orderedOn: string;
  /** YYYY-MM-DD: the day it was asked for */
  issuedOn: string;
  /** YYYY-MM-DD */
  dueOn: string;
  totalCents: number;
  paidCents: number;
  amountCents: number;
  /** RF creditor reference, without spaces */
  reference: string;
  buyer: NamedAddressJson;
  seller: SellerConfig;
  bank: InvoiceBank;
}

/** The EPC QR code's largest amount: EUR 999999999.99. */
export const EPC_MAX_CENTS = 99_999_999_999;

/**
 * The EPC QR code payload (EPC069-12, version 002, UTF-8, SEPA credit transfer), one field a line:
 * service tag, version, character set, identification, BIC, beneficiary name (at most 70
 * characters), IBAN, amount (EUR, dot, two decimals), purpose (empty), the structured creditor
 * reference, and no unstructured remittance (the two exclude each other), so the payload ends there.
 */
export function epcPayload(input: { bic: string; name: string; iban: string; amountCents: number; reference: string }): string {
  if (!Number.isInteger(input.amountCents) || input.amountCents < 1 || input.amountCents > EPC_MAX_CENTS) {
    throw new Error(`An EPC QR code carries 0.01 to 999999999.99 EUR, got ${input.amountCents} cents`);
  }
  const amount = `EUR${Math.floor(input.amountCents / 100)}.${String(input.amountCents % 100).padStart(2, '0')}`;
  return [
    'BCD',
    '002',
    '1',
    'SCT',
    input.bic.replace(/\s+/g, '').toUpperCase(),
    input.name.slice(0, 70),
    input.iban.replace(/\s+/g, '').toUpperCase(),
    amount,
    '',
    normalizeReference(input.reference),
  ].join('\n');
}

/**
 * The pro-forma of a reserved order with a balance still owed (the caller's own when `userId` is
 * given); undefined for another's order, one without a deposit, or one not waiting for its balance.
 */
export async function loadProForma(db: Db, userId: string | null, orderId: string): Promise<ProForma | undefined> {
  let query = db
    .selectFrom('orders as o')
    .select([
      'o.id',
      'o.total_cents',
      'o.billing',
      'o.bank_reference',
      sql<string>`to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('ordered_on'),
      sql<string | null>`to_char(o.balance_due_on, 'YYYY-MM-DD')`.as('due_on'),
      sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM-DD')`.as('today'),
      sql<string>`(select coalesce(sum(e.amount_cents), 0) from order_ledger_entries e where e.order_id = o.id and e.kind in ('card_capture', 'bank_transfer_in'))::text`.as(
        'paid_cents',
      ),
    ])
    .where('o.id', '=', orderId)
    .where('o.status', '=', 'reserved')
    .where('o.deposit_cents', 'is not', null);
  if (userId !== null) query = query.where('o.user_id', '=', userId);
  const order = await query.executeTakeFirst();
  if (!order?.bank_reference || !order.due_on) return undefined;
  const paidCents = Number(order.paid_cents);
  const amountCents = order.total_cents - paidCents;
  if (amountCents <= 0) return undefined;
  const { seller, bank } = invoiceParties();
  return {
    orderId: order.id,
    orderedOn: order.ordered_on,
    issuedOn: order.today,
    dueOn: order.due_on,
    totalCents: order.total_cents,
    paidCents,
    amountCents,
    reference: normalizeReference(order.bank_reference),
    buyer: order.billing,
    seller,
    bank,
  };
}
