import type { OrderVatStatus, VatCorrection } from '@boatshop/contract';
import type { SellerConfig, ViesConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { recordMoneyEventDocument, type IssuedDocument } from '../invoices/money-events.js';
import { orderMoney } from '../ledger/ledger.js';
import { orderVat } from './order-vat.js';
import { checkVatId } from './vies.js';

// A business whose VAT ID VIES could not confirm at checkout paid like a consumer (the decision
// fails closed). When VIES confirms the ID later, the order is corrected once: every invoice issued
// under the unconfirmed check gets a credit note for what it charged, the same invoices are issued
// again under the confirmed ID, the order's total becomes the exempt amount, and what was received
// beyond it is owed to the buyer. The refunds that pay it back need no further credit note
// (correction-refunds.ts): the correction's documents already say so.

/** Orders whose invoices may be corrected: money received, nothing refunded or disputed yet. */
const CORRECTABLE = ['reserved', 'paid', 'shipped', 'delivered'];

/** The buyer an order's VAT was decided for, and whether an admin may still correct it. */
export async function orderVatStatus(db: Db, orderId: string): Promise<OrderVatStatus | undefined> {
  const row = await db
    .selectFrom('orders')
    .leftJoin('vat_buyer_checks as c', 'c.id', 'orders.vat_buyer_check_id')
    .leftJoin('vat_corrections as v', 'v.order_id', 'orders.id')
    .select([
      'orders.status',
      'c.buyer_type',
      'c.vat_id',
      'c.vies_result',
      'orders.vies_consultation_number',
      'v.created_at as corrected_at',
      'v.owed_cents',
      'v.settled_cents',
    ])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (!row) return undefined;
  const correction =
    row.corrected_at === null
      ? null
      : { at: row.corrected_at.toISOString(), owedCents: row.owed_cents ?? 0, settledCents: row.settled_cents ?? 0 };
  return {
    orderId,
    buyerType: row.buyer_type,
    vatId: row.vat_id,
    vies: row.vies_result,
    consultationNumber: row.vies_consultation_number,
    correction,
    correctable:
      correction === null &&
      row.buyer_type === 'business' &&
      row.vat_id !== null &&
      row.vies_result !== 'valid' &&
      CORRECTABLE.includes(row.status),
  };
}

export async function correctOrderVat(
  db: Db,
  settings: { seller: SellerConfig; vies: ViesConfig },
  orderId: string,
): Promise<VatCorrection> {
  const before = await db
    .selectFrom('orders')
    .leftJoin('vat_buyer_checks as c', 'c.id', 'orders.vat_buyer_check_id')
    .select(['orders.vat_buyer_check_id as checkId', 'c.buyer_type', 'c.vat_id', 'c.vies_result', 'c.country_code'])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (!before) throw notFound('Order not found');
  if (await db.selectFrom('vat_corrections').select('id').where('order_id', '=', orderId).executeTakeFirst()) {
    throw conflict('VAT_CORRECTED_ALREADY', "This order's VAT was corrected already.");
  }
  if (before.buyer_type !== 'business' || !before.vat_id) {
    throw conflict('NO_BUSINESS_VAT_ID', 'This order was not placed by a business with a VAT ID.');
  }
  if (before.vies_result === 'valid')
    throw conflict('VAT_ID_CONFIRMED_ALREADY', 'VIES confirmed this VAT ID at checkout: nothing to correct.');

  // Asked outside the transaction: VIES may take seconds.
  const vies = await checkVatId(settings.vies, settings.seller.vatId, before.vat_id);
  if (vies.result !== 'valid') {
    throw conflict(
      'VAT_ID_NOT_CONFIRMED',
      vies.result === 'invalid'
        ? `VIES says ${before.vat_id} is not a valid VAT ID: the order stays as invoiced.`
        : 'VIES is still unavailable for this member state: try again later.',
    );
  }

  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom('orders')
      .select(['status', 'user_id', 'vat_buyer_check_id'])
      .where('id', '=', orderId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (await trx.selectFrom('vat_corrections').select('id').where('order_id', '=', orderId).executeTakeFirst()) {
      throw conflict('VAT_CORRECTED_ALREADY', "This order's VAT was corrected already.");
    }
    if (order.vat_buyer_check_id !== before.checkId) throw conflict('ORDER_CHANGED', 'The order changed meanwhile: reload it.');
    if (!CORRECTABLE.includes(order.status))
      throw conflict('ORDER_NOT_CORRECTABLE', `The order is ${order.status}: its VAT cannot be corrected here.`);
    const documents = await trx
      .selectFrom('invoices')
      .select(['id', 'kind', 'total_cents'])
      .where('order_id', '=', orderId)
      .orderBy('sequence')
      .execute();
    if (documents.some((document) => document.kind === 'credit_note')) {
      throw conflict('ORDER_HAS_CREDIT_NOTES', 'This order has credit notes already: correct its VAT with the accountant, by hand.');
    }

    // Credit notes first, while the order still carries the unconfirmed check: each credits what
    // its invoice charged (a final invoice: the supply less the advances it deducted).
    const advancesCents = documents.filter((d) => d.kind === 'advance').reduce((sum, d) => sum + d.total_cents, 0);
    const creditNotes: IssuedDocument[] = [];
    for (const invoice of documents) {
      const charged = invoice.kind === 'final' ? invoice.total_cents - advancesCents : invoice.total_cents;
      const issued = await recordMoneyEventDocument(trx, settings.seller, {
        type: 'vat_correction_credit',
        orderId,
        invoiceId: invoice.id,
        amountCents: charged,
      });
      creditNotes.push(issued!);
    }

    const check = await trx
      .insertInto('vat_buyer_checks')
      .values({
        user_id: order.user_id,
        buyer_type: 'business',
        country_code: before.country_code!,
        vat_id: before.vat_id,
        vies_result: 'valid',
        consultation_number: vies.consultationNumber,
        trader_name: vies.name,
        trader_address: vies.address,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('orders')
      .set({ vat_buyer_check_id: check.id, vies_consultation_number: vies.consultationNumber })
      .where('id', '=', orderId)
      .execute();
    const totalCents = (await orderVat(trx, settings.seller, orderId)).totalCents;
    await trx.updateTable('orders').set({ total_cents: totalCents }).where('id', '=', orderId).execute();

    // The same invoices again under the confirmed ID: an advance for the money it received, an
    // invoice for the new total, a final invoice for the whole supply less the reissued advances.
    const reissued: IssuedDocument[] = [];
    for (const invoice of documents) {
      const issued = await recordMoneyEventDocument(trx, settings.seller, {
        type: 'vat_correction_reissue',
        orderId,
        invoiceId: invoice.id,
        kind: invoice.kind as 'advance' | 'invoice' | 'final',
        amountCents: invoice.kind === 'advance' ? invoice.total_cents : totalCents,
      });
      reissued.push(issued!);
    }

    const money = (await orderMoney(trx, orderId))!;
    const owedCents = Math.max(0, money.collectedCents - money.refundedCents - totalCents);
    await trx
      .insertInto('vat_corrections')
      .values({ order_id: orderId, previous_check_id: before.checkId, check_id: check.id, owed_cents: owedCents })
      .execute();
    const shown = (document: IssuedDocument) => ({
      id: document.id,
      number: document.number,
      kind: document.kind,
      totalCents: document.totalCents,
    });
    return {
      orderId,
      vatId: before.vat_id!,
      consultationNumber: vies.consultationNumber,
      creditNotes: creditNotes.map(shown),
      reissued: reissued.map(shown),
      totalCents,
      owedCents,
    };
  });
}
