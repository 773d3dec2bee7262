// The provider's side of a refund: its answer applied to the refund row, the ledger booking and
// the order's state once the money moved, and the settle-refunds job that asks again about every
// refund left unsettled. Every step is idempotent: whichever of the answer, the webhook and the job
// comes first completes a refund, the others find nothing to do.
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { appendLedgerEntry, orderMoney } from '../ledger/ledger.js';
import { recordRefundDocument } from '../invoices/money-events.js';
import { PaymentProviderRefusal, type PaymentProvider, type RefundResult } from '../payments/payment-provider.js';
import { tryTransitionOrder, type Actor } from './order-state.js';
import { lockOrder, refundIdempotencyKey, UNSETTLED } from './refund-totals.js';
import type { OrderStatus } from '@boatshop/contract';

/**
 * Applies the provider's answer about one refund row, in the caller's transaction: succeeded
 * books it (finishRefund), pending and requires_action keep it open, failed and canceled close
 * it with nothing booked. Answers the row's status afterwards.
 */
export async function applyRefundAnswer(trx: Transaction<Database>, refundId: string, answer: Pick<RefundResult, 'id' | 'status'>) {
  if (answer.status === 'succeeded') {
    await finishRefund(trx, refundId, answer.id);
    return 'succeeded' as const;
  }
  const status = answer.status === 'requires_action' ? 'requires_action' : answer.status === 'pending' ? 'pending' : answer.status;
  await trx
    .updateTable('order_refunds')
    .set({ status, provider_reference: answer.id })
    .where('id', '=', refundId)
    .where('status', 'in', UNSETTLED)
    .execute();
  return status;
}

/**
 * Step three: the provider made the refund; the row becomes succeeded, the ledger books it and the
 * order follows (a cancellation's refund cancels it), in the caller's transaction. Called after the
 * provider's answer, for its refund webhooks and by the settle-refunds job: whichever comes first
 * completes it, the others find nothing to do. The money moved whatever the order's state: if the
 * order has meanwhile gone where no refund transition leads (a dispute), the ledger still counts it.
 */
export async function finishRefund(trx: Transaction<Database>, refundId: string, providerReference: string): Promise<boolean> {
  const refund = await trx.selectFrom('order_refunds').select('order_id').where('id', '=', refundId).executeTakeFirst();
  if (!refund) return false;
  await lockOrder(trx, refund.order_id);
  const done = await trx
    .updateTable('order_refunds')
    .set({ status: 'succeeded', provider_reference: providerReference })
    .where('id', '=', refundId)
    .where('status', 'in', UNSETTLED)
    .returning(['order_id', 'amount_cents', 'reason', 'idempotency_key', 'created_by_type', 'created_by_id'])
    .executeTakeFirst();
  if (!done) return false;
  const actor = { type: done.created_by_type, id: done.created_by_id };
  await appendLedgerEntry(trx, {
    orderId: done.order_id,
    kind: 'card_refund',
    amountCents: -done.amount_cents,
    source: 'card',
    reference: providerReference,
    actor,
    note: done.reason,
  });
  // books: the refund's credit note (a cancellation's refund: the cancellation's), in this transaction.
  await recordRefundDocument(trx, {
    orderId: done.order_id,
    refundId,
    amountCents: done.amount_cents,
    cancellation: done.idempotency_key?.startsWith('cancel:') ?? false,
  });
  await followRefunds(trx, done.order_id, {
    actor,
    amountCents: done.amount_cents,
    note: done.reason,
    cancel: done.idempotency_key?.startsWith('cancel:') ?? false,
  });
  return true;
}

/** The order's state after money went back: cancelled (a cancellation), refunded or partially refunded. */
export async function followRefunds(
  trx: Transaction<Database>,
  orderId: string,
  input: { actor: Actor; amountCents: number; note: string | null; cancel: boolean },
): Promise<void> {
  const money = (await orderMoney(trx, orderId))!;
  const to: OrderStatus = input.cancel
    ? 'cancelled'
    : money.refundedCents + money.lostCents >= money.receivedCents
      ? 'refunded'
      : 'partially_refunded';
  await tryTransitionOrder(trx, { orderId, to, actor: input.actor, amountCents: input.amountCents, note: input.note });
}

/** A refund row the provider reports failed or canceled (after pending): closed, nothing booked. */
export async function failRefund(trx: Transaction<Database>, refundId: string, status: 'failed' | 'canceled'): Promise<void> {
  await trx.updateTable('order_refunds').set({ status }).where('id', '=', refundId).where('status', 'in', UNSETTLED).execute();
}

/**
 * The settle-refunds job: every refund left unsettled (no answer, or the provider said pending)
 * for `olderThanSeconds` is asked about again. Sending the same request under the same
 * idempotency key is Stripe's documented way to learn its outcome: the provider answers the refund
 * it made the first time, or makes it now if the first request never reached it. Answers how
 * many rows were settled.
 */
export async function settleUnsettledRefunds(
  db: Kysely<Database>,
  payments: PaymentProvider | null,
  log: FastifyBaseLogger,
  olderThanSeconds = 60,
): Promise<number> {
  if (!payments) return 0;
  const open = await db
    .selectFrom('order_refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.id', 'r.order_id', 'r.amount_cents', 'o.payment_reference'])
    .where('r.status', 'in', UNSETTLED)
    .where('r.method', '=', 'card')
    .where(sql<boolean>`coalesce(r.sent_at, r.created_at) < now() - make_interval(secs => ${olderThanSeconds})`)
    .orderBy('r.created_at')
    .limit(100)
    .execute();
  let settled = 0;
  for (const row of open) {
    if (await askProviderAboutRefund(db, payments, log, row)) settled += 1;
  }
  return settled;
}

/**
 * One unsettled refund row sent (again) under its own idempotency key and the answer applied.
 * Answers true when the row is settled afterwards; a provider that does not answer leaves it open.
 */
async function askProviderAboutRefund(
  db: Kysely<Database>,
  payments: PaymentProvider,
  log: FastifyBaseLogger,
  row: { id: string; order_id: string; amount_cents: number; payment_reference: string | null },
): Promise<boolean> {
  if (!row.payment_reference) return false;
  let answer: RefundResult;
  try {
    await db
      .updateTable('order_refunds')
      .set({ sent_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
    answer = await payments.refund({
      paymentIntentId: row.payment_reference,
      amountCents: row.amount_cents,
      idempotencyKey: refundIdempotencyKey(row.id),
      metadata: { orderId: row.order_id, refundId: row.id },
    });
  } catch (err) {
    if (err instanceof PaymentProviderRefusal) {
      await db.transaction().execute((trx) => failRefund(trx, row.id, 'failed'));
      return true;
    }
    log.error({ err, refundId: row.id }, 'refund still unknown: the payment provider did not answer; asked again next run');
    return false;
  }
  const status = await db.transaction().execute((trx) => applyRefundAnswer(trx, row.id, answer));
  return status !== 'pending' && status !== 'requires_action';
}

/**
 * Refunds of one order written in a transaction that could not call the provider (the automatic
 * refund of a boat that went to someone else) and not sent yet: sent now, after that commit. What
 * is not sent here (a crash, a timeout) the settle-refunds job sends under the same key.
 */
export async function sendUnsentRefundsOfOrder(
  db: Kysely<Database>,
  payments: PaymentProvider | null,
  log: FastifyBaseLogger,
  where: { orderId: string } | { paymentReference: string },
): Promise<void> {
  if (!payments) return;
  let query = db
    .selectFrom('order_refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.id', 'r.order_id', 'r.amount_cents', 'o.payment_reference'])
    .where('r.status', 'in', UNSETTLED)
    .where('r.method', '=', 'card')
    .where('r.sent_at', 'is', null)
    .where('r.created_by_type', '=', 'system');
  query = 'orderId' in where ? query.where('o.id', '=', where.orderId) : query.where('o.payment_reference', '=', where.paymentReference);
  const rows = await query.execute();
  for (const row of rows) await askProviderAboutRefund(db, payments, log, row);
}
