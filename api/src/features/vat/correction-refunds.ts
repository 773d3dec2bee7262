import type { Db } from '../../db/database.js';

/**
 * A refund after a VAT correction pays back what the correction found owed first: that part has
 * its credit notes already. Answers the part of the refund still to be documented (0: none).
 * Runs in the refund's transaction; the correction's row lock makes concurrent refunds take turns,
 * and a refund seen before answers what it answered then.
 */
export async function settleCorrectionRefund(
  trx: Db,
  refund: { orderId: string; refundKey: string; amountCents: number },
): Promise<number> {
  const correction = await trx
    .selectFrom('vat_corrections')
    .select(['id', 'owed_cents', 'settled_cents'])
    .where('order_id', '=', refund.orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!correction) return refund.amountCents;
  const seen = await trx
    .selectFrom('vat_correction_refunds')
    .select('covered_cents')
    .where('refund_key', '=', refund.refundKey)
    .executeTakeFirst();
  if (seen) return refund.amountCents - seen.covered_cents;
  const covered = Math.max(0, Math.min(refund.amountCents, correction.owed_cents - correction.settled_cents));
  await trx
    .insertInto('vat_correction_refunds')
    .values({ refund_key: refund.refundKey, correction_id: correction.id, covered_cents: covered })
    .execute();
  if (covered > 0) {
    await trx
      .updateTable('vat_corrections')
      .set({ settled_cents: correction.settled_cents + covered })
      .where('id', '=', correction.id)
      .execute();
  }
  return refund.amountCents - covered;
}
