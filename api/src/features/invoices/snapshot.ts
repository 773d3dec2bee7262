import { sql } from 'kysely';
import type { VatLine } from '@boatshop/contract';
import type { Db } from '../../db/database.js';
import type { orderVat } from '../vat/order-vat.js';
import type { InvoiceBank } from './seller.js';
import type { InvoiceKind, InvoiceSnapshot, SnapshotLine, SnapshotParty, SnapshotReference } from './invoices.table.js';
import type { SellerConfig } from '../../config.js';

// What a document says, frozen when it is issued: the PDF and its structured invoice are rendered
// from this alone, so what the buyer downloads never depends on later changes to the order, the
// catalogue or the shop's settings.

type OrderVat = Awaited<ReturnType<typeof orderVat>>;

/** The EN 16931 VAT category and exemption reason of a VAT case (an exempt new boat sold to a consumer, who has no VAT ID, is E). */
export function categoryOf(vatCase: string, buyerHasVatId: boolean): { code: string; reason: string | null } {
  switch (vatCase) {
    case 'standard':
      return { code: 'S', reason: null };
    case 'intra_community':
      return { code: 'K', reason: 'VATEX-EU-IC' };
    case 'new_means_of_transport':
      return buyerHasVatId ? { code: 'K', reason: 'VATEX-EU-IC' } : { code: 'E', reason: 'VATEX-EU-IC' };
    case 'export':
      return { code: 'G', reason: 'VATEX-EU-G' };
    case 'margin':
      return { code: 'E', reason: 'VATEX-EU-F' };
    default:
      return { code: 'O', reason: 'VATEX-EU-O' };
  }
}

/**
 * The order's lines scaled to the amount a document covers (a deposit, a refund), each line's VAT
 * in its own proportion; the rounding rest goes to the last line, so the lines add up to the amount.
 */
export function scaleLines(
  lines: (VatLine & { description: string })[],
  orderTotalCents: number,
  amountCents: number,
  buyerHasVatId: boolean,
) {
  let left = amountCents;
  return lines.map((line, index): SnapshotLine => {
    const last = index === lines.length - 1;
    const total = last ? left : orderTotalCents === 0 ? 0 : Math.round((line.totalCents * amountCents) / orderTotalCents);
    left -= total;
    const vat = line.totalCents === 0 ? 0 : Math.round((line.vatCents * total) / line.totalCents);
    const category = categoryOf(line.vatCase, buyerHasVatId);
    return {
      description: line.description,
      quantity: line.quantity,
      vatCase: line.vatCase,
      categoryCode: category.code,
      exemptionReasonCode: category.reason,
      rateBasisPoints: line.rateBasisPoints,
      netCents: total - vat,
      vatCents: vat,
      totalCents: total,
      showsVat: line.showsVat,
      wording: line.wording,
    };
  });
}

interface AddressJson {
  name: string;
  address: { line1: string; city: string; state: string; postal_code: string; country: string };
}

function parseAddress(value: unknown): AddressJson | null {
  const parsed = (typeof value === 'string' ? JSON.parse(value) : value) as AddressJson | null;
  return parsed?.address ? parsed : null;
}

function addressLines(address: AddressJson['address']): string[] {
  return [address.line1, `${address.postal_code} ${address.city}`, address.state].map((line) => line.trim()).filter(Boolean);
}

async function reference(trx: Db, invoiceId: string): Promise<SnapshotReference> {
  const row = await trx
    .selectFrom('invoices')
    .select([
      'number',
      'net_cents',
      'vat_cents',
      'total_cents',
      sql<string>`to_char(issued_at at time zone 'UTC', 'YYYY-MM-DD')`.as('issued_on'),
    ])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return {
    number: row.number,
    issuedOn: row.issued_on,
    netCents: Number(row.net_cents),
    vatCents: Number(row.vat_cents),
    totalCents: Number(row.total_cents),
  };
}

/** Everything the document of a money event shows, read in the event's transaction. */
export async function buildSnapshot(
  trx: Db,
  input: {
    seller: SellerConfig;
    bank: InvoiceBank | null;
    orderId: string;
    kind: InvoiceKind;
    vat: OrderVat;
    amountCents: number;
    correctsInvoiceId: string | null;
    eventOn: string;
  },
): Promise<InvoiceSnapshot> {
  const { vat } = input;
  const order = await trx
    .selectFrom('orders')
    .select([
      'billing',
      'shipping',
      'vies_consultation_number',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('ordered_on'),
    ])
    .where('id', '=', input.orderId)
    .executeTakeFirstOrThrow();
  const names = await trx.selectFrom('order_items').select(['name']).where('order_id', '=', input.orderId).orderBy('id').execute();
  const billing = parseAddress(order.billing) ?? parseAddress(order.shipping);
  const vatId = vat.check?.vat_id ?? null;
  const buyer: InvoiceSnapshot['buyer'] = {
    type: vat.buyer.buyerType,
    // A business is named as VIES knows it; anyone else as the billing address says.
    name: vat.check?.trader_name?.trim() || billing?.name || '',
    addressLines: billing ? addressLines(billing.address) : [],
    country: billing?.address.country ?? vat.buyer.country,
    vatId,
    viesConsultationNumber: order.vies_consultation_number,
  };
  const seller: SnapshotParty = {
    name: input.seller.name,
    addressLines: input.seller.addressLines,
    country: input.seller.country,
    vatId: input.seller.vatId,
    taxNumber: input.seller.taxNumber,
  };
  const described = vat.lines.map((line, index) => ({ ...line, description: names[index]?.name ?? 'Boat' }));
  const lines = scaleLines(described, vat.totalCents, input.kind === 'final' ? vat.totalCents : input.amountCents, vatId !== null);
  const total = lines.reduce((sum, line) => sum + line.totalCents, 0);

  let advances: SnapshotReference[] = [];
  if (input.kind === 'final') {
    const rows = await trx
      .selectFrom('invoices')
      .select('id')
      .where('order_id', '=', input.orderId)
      .where('kind', '=', 'advance')
      // An advance credited by a VAT correction was issued again: the reissue is the one deducted.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('invoices as c')
              .select('c.id')
              .whereRef('c.corrects_invoice_id', '=', 'invoices.id')
              .where('c.event_key', 'like', 'vat-correction:credit:%'),
          ),
        ),
      )
      .orderBy('sequence')
      .execute();
    advances = await Promise.all(rows.map((row) => reference(trx, row.id)));
  }
  const corrects = input.correctsInvoiceId ? await reference(trx, input.correctsInvoiceId) : null;
  return {
    seller,
    buyer,
    bank: input.bank,
    orderId: input.orderId,
    orderedOn: order.ordered_on,
    eventOn: input.eventOn,
    lines,
    advances,
    corrects,
    amountDueCents: total - advances.reduce((sum, advance) => sum + advance.totalCents, 0),
  };
}
