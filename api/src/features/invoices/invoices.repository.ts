import { sql } from 'kysely';
import type { InvoiceSummary, VatSummary, VatSummaryRow } from '@boatshop/contract';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { isCalendarDay } from '../vat/vat.repository.js';
import type { InvoiceSnapshot } from './invoices.table.js';

// Reading the documents: a shopper's of one order, the admin's of a period, the accountant's CSV
// and the VAT summary per country and rate an OSS return needs.

const MAX_PERIOD_DAYS = 366;
const MAX_LISTED = 5000;

/** A period of issue days, both included; a clear 400 for a day that does not exist, a reversed or an over-long period. */
export function checkedPeriod(query: { from: string; to: string }) {
  if (!isCalendarDay(query.from) || !isCalendarDay(query.to)) throw badRequest('Invalid request: from and to must be days (YYYY-MM-DD)');
  if (query.from > query.to) throw badRequest('Invalid request: from is after to');
  const days = (Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_PERIOD_DAYS) throw badRequest(`Invalid request: a period is at most ${MAX_PERIOD_DAYS} days`);
  return query;
}

function baseQuery(db: Db) {
  return db
    .selectFrom('invoices as i')
    .leftJoin('invoices as c', 'c.id', 'i.corrects_invoice_id')
    .select([
      'i.id',
      'i.number',
      'i.kind',
      'i.order_id',
      sql<string>`to_char(i.issued_at at time zone 'UTC', 'YYYY-MM-DD')`.as('issued_on'),
      'i.net_cents',
      'i.vat_cents',
      'i.total_cents',
      'i.vat_case',
      'i.vat_country',
      'i.rate_basis_points',
      'i.buyer_country',
      'i.buyer_vat_id',
      'i.snapshot',
      'c.number as corrects_number',
    ])
    .orderBy('i.issued_at')
    .orderBy('i.series')
    .orderBy('i.sequence');
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toSummary(row: Row): InvoiceSummary {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    orderId: row.order_id,
    issuedOn: row.issued_on,
    netCents: Number(row.net_cents),
    vatCents: Number(row.vat_cents),
    totalCents: Number(row.total_cents),
    vatCase: row.vat_case,
    buyerCountry: row.buyer_country,
    buyerVatId: row.buyer_vat_id,
    correctsNumber: row.corrects_number,
  };
}

/** The documents of one of the shopper's orders; another's order is answered as having none. */
export async function listOrderInvoices(db: Db, userId: string, orderId: string): Promise<InvoiceSummary[]> {
  const rows = await baseQuery(db)
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .where('o.id', '=', orderId)
    .where('o.user_id', '=', userId)
    .execute();
  return rows.map(toSummary);
}

/** Whether a document belongs to an order of this shopper. */
export async function isInvoiceOfUser(db: Db, userId: string, invoiceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('invoices as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select('i.id')
    .where('i.id', '=', invoiceId)
    .where('o.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function invoiceExists(db: Db, invoiceId: string): Promise<boolean> {
  return (await db.selectFrom('invoices').select('id').where('id', '=', invoiceId).executeTakeFirst()) !== undefined;
}

function periodRows(db: Db, period: { from: string; to: string }) {
  return baseQuery(db)
    .where(sql<boolean>`(i.issued_at at time zone 'UTC')::date between ${period.from}::date and ${period.to}::date`)
    .limit(MAX_LISTED)
    .execute();
}

export async function listInvoicesInPeriod(db: Db, period: { from: string; to: string }): Promise<InvoiceSummary[]> {
  return (await periodRows(db, checkedPeriod(period))).map(toSummary);
}

const SIGN = (kind: string) => (kind === 'credit_note' ? -1 : 1);

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  // A cell a spreadsheet would run as a formula is quoted with a leading apostrophe.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(,\d+)?$/.test(text) ? `'${text}` : text;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const euros = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

/** The period's documents for the accountant: semicolon-separated, decimal comma, credit notes negative. */
export async function invoicesCsv(db: Db, period: { from: string; to: string }): Promise<string> {
  const rows = await periodRows(db, checkedPeriod(period));
  const header = [
    'Number',
    'Kind',
    'Issued on',
    'Order',
    'Corrects',
    'Buyer country',
    'Buyer VAT ID',
    'VAT case',
    'VAT country',
    'Rate %',
    'Net',
    'VAT',
    'Total',
  ];
  const lines = rows.map((row) => {
    const sign = SIGN(row.kind);
    return [
      row.number,
      row.kind,
      row.issued_on.split('-').reverse().join('/'),
      row.order_id,
      row.corrects_number,
      row.buyer_country,
      row.buyer_vat_id,
      row.vat_case,
      row.vat_country,
      euros(row.rate_basis_points),
      euros(sign * Number(row.net_cents)),
      euros(sign * Number(row.vat_cents)),
      euros(sign * Number(row.total_cents)),
    ]
      .map(csvCell)
      .join(';');
  });
  return `${[header.join(';'), ...lines].join('\r\n')}\r\n`;
}

/**
 * VAT per country and rate for a period, as an OSS return reads it: advance invoices count when the
 * advance is received, a final invoice only for what the advances did not cover, credit notes
 * negative. Each document's lines are grouped by their own rate and case.
 */
export async function vatSummary(db: Db, period: { from: string; to: string }): Promise<VatSummary> {
  const rows = await periodRows(db, checkedPeriod(period));
  const groups = new Map<string, VatSummaryRow>();
  for (const row of rows) {
    const snapshot = (typeof row.snapshot === 'string' ? JSON.parse(row.snapshot) : row.snapshot) as InvoiceSnapshot | null;
    const lines = snapshot?.lines ?? [
      {
        vatCase: row.vat_case,
        rateBasisPoints: row.rate_basis_points,
        netCents: Number(row.net_cents),
        vatCents: Number(row.vat_cents),
        totalCents: Number(row.total_cents),
      },
    ];
    const whole = lines.reduce((sum, line) => sum + line.totalCents, 0);
    const prepaid = snapshot?.advances.reduce((sum, advance) => sum + advance.totalCents, 0) ?? 0;
    // The share of each line this document adds to the period: all of it, or what the advances left.
    const share = row.kind === 'final' && whole > 0 ? (whole - prepaid) / whole : 1;
    const sign = SIGN(row.kind);
    const counted = new Set<string>();
    for (const line of lines) {
      const country = line.vatCase === 'standard' ? (row.vat_country ?? row.buyer_country) : row.buyer_country;
      const key = `${country}:${line.rateBasisPoints}:${line.vatCase}`;
      const group = groups.get(key) ?? {
        country,
        rateBasisPoints: line.rateBasisPoints,
        vatCase: line.vatCase,
        netCents: 0,
        vatCents: 0,
        totalCents: 0,
        documents: 0,
      };
      const vat = Math.round(line.vatCents * share);
      const total = Math.round(line.totalCents * share);
      group.vatCents += sign * vat;
      group.totalCents += sign * total;
      group.netCents += sign * (total - vat);
      if (!counted.has(key)) group.documents += 1;
      counted.add(key);
      groups.set(key, group);
    }
  }
  const list = [...groups.values()].sort(
    (a, b) => a.country.localeCompare(b.country) || b.rateBasisPoints - a.rateBasisPoints || a.vatCase.localeCompare(b.vatCase),
  );
  const sum = (key: 'netCents' | 'vatCents' | 'totalCents') => list.reduce((total, group) => total + group[key], 0);
  return {
    from: period.from,
    to: period.to,
    rows: list,
    netCents: sum('netCents'),
    vatCents: sum('vatCents'),
    totalCents: sum('totalCents'),
  };
}
