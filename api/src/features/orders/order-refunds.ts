import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { cardRefundableCents, appendLedgerEntry, orderMoney } from '../ledger/ledger.js';
import { recordRefundDocument } from '../invoices/money-events.js';
import { PaymentProviderRefusal, type PaymentProvider, type RefundResult } from '../payments/payment-provider.js';
import { applyPaymentIntentState } from '../payments/payment-transitions.js';
import { invalidTransition, PROVIDER, refusal, transitionOrder, tryTransitionOrder, type Actor } from './order-state.js';
import type { OrderStatus } from '@boatshop/contract';

export interface RefundTotals {
  /** what the buyer's payments are worth (received less lost disputes), from the ledger */
  paidCents: number;
  /** card money received: what the provider can refund (bank transfers go back by bank) */
  cardPaidCents: number;
  /** refunds done */
  refundedCents: number;
  /** done and still in flight: what may not be refunded again */
  refundedOrPendingCents: number;
  /** what can still go back to the card now */
  cardRefundableCents: number;
  /** bank money received and not sent back: it goes back by bank, never to the card */
  bankHeldCents: number;
}

export async function refundTotals(db: Db, orderId: string): Promise<RefundTotals> {
  const money = await orderMoney(db, orderId);
  if (!money)
    return { paidCents: 0, cardPaidCents: 0, refundedCents: 0, refundedOrPendingCents: 0, cardRefundableCents: 0, bankHeldCents: 0 };
  return {
    paidCents: money.collectedCents,
    cardPaidCents: money.cardReceivedCents,
    refundedCents: money.refundedCents,
    refundedOrPendingCents: money.refundedCents + money.refundsInFlightCents,
    cardRefundableCents: cardRefundableCents(money),
    bankHeldCents: money.bankReceivedCents - money.bankRefundedCents,
  };
}

/**
 * What can still be refunded through the card provider. Refunds go back through the card: the
 * money of bank-transfer lines cannot, so it is not counted here (see refusalByBank).
 */
export const refundableCents = (totals: RefundTotals) => totals.cardRefundableCents;

/** Money received by bank transfer and not refundable by card: the refusal that says so. */
function refusalByBank(totals: RefundTotals, amountCents: number | null): ApiError | null {
  const bankCents = totals.bankHeldCents;
  if (bankCents <= 0) return null;
  const card = refundableCents(totals);
  if (amountCents !== null && amountCents <= card) return null;
  return new ApiError(
    422,
    'REFUND_BY_BANK_TRANSFER',
    `${formatEuro(bankCents)} of this order was paid by bank transfer and cannot be refunded to a card: ` +
      `return it to the buyer by bank transfer. At most ${formatEuro(card)} can be refunded to the card here.`,
  );
}

function providerOf(payments: PaymentProvider | null): PaymentProvider {
  if (!payments) throw new ApiError(503, 'PAYMENTS_UNAVAILABLE', 'The payment provider is not configured; nothing was refunded.');
  return payments;
}

async function lockOrder(trx: Transaction<Database>, orderId: string) {
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'status', 'shipped_at', 'delivered_at', 'payment_reference', 'deposit_cents'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!order) throw notFound('Order not found');
  return order;
}

interface PendingRefund {
  refundId: string;
  paymentIntentId: string;
  amountCents: number;
  /** settled already (succeeded): nothing to send */
  settled: boolean;
}

const UNSETTLED = ['pending', 'requires_action'] as const;

/**
 * Step one of a refund, in one transaction with the order locked: checks the state and the
 * amount and writes the refund as pending, so a concurrent refund sees it held. The same key
 * again finds its row: a settled one is done; an unsettled one (the provider did not answer, or
 * answered pending) is sent again under the same provider idempotency key, so the provider
 * refunds once. Only a refund the provider refused or failed may be tried anew.
 */
async function openRefund(
  db: Kysely<Database>,
  input: { orderId: string; amountCents: number | 'all'; reason: string | null; key: string; actor: Actor; target: 'refund' | 'cancel' },
): Promise<PendingRefund | null> {
  return db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, input.orderId);
    const existing = await trx
      .selectFrom('order_refunds')
      .select(['id', 'order_id', 'amount_cents', 'status'])
      .where('idempotency_key', '=', input.key)
      .executeTakeFirst();
    if (existing) {
      if (existing.order_id !== input.orderId) {
        throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'This idempotency key belongs to another order.');
      }
      if (existing.status !== 'failed' && existing.status !== 'canceled') {
        return {
          refundId: existing.id,
          paymentIntentId: order.payment_reference ?? '',
          amountCents: existing.amount_cents,
          settled: existing.status === 'succeeded',
        };
      }
      // The provider refused or failed it: the attempt is kept under another key, a new one starts.
      await trx
        .updateTable('order_refunds')
        .set({ idempotency_key: `${input.key}:${existing.status}:${existing.id}` })
        .where('id', '=', existing.id)
        .execute();
    }

    // Refunded in full already, or everything left is in flight: one answer, whichever of two
    // racing "refund all" requests comes second and however far the first has got.
    if (input.target === 'refund' && order.status === 'refunded') throw nothingToRefund();
    const refused = input.target === 'cancel' ? refusal(order, 'cancelled', input.actor) : refusalToRefund(order, input.actor);
    if (refused) throw refused;
    const totals = await refundTotals(trx, input.orderId);
    const refundable = refundableCents(totals);
    if (input.target === 'refund' && refundable === 0 && totals.bankHeldCents <= 0) throw nothingToRefund();
    // A cancellation refunds everything: impossible through the card when a bank transfer paid part.
    const byBank = refusalByBank(totals, input.amountCents === 'all' ? null : input.amountCents);
    if (byBank) throw byBank;
    const amount = input.amountCents === 'all' ? refundable : input.amountCents;
    if (input.target === 'cancel' && amount === 0) return null;
    if (amount > refundable || amount <= 0) {
      throw new ApiError(
        422,
        'REFUND_TOO_LARGE',
        refundable === 0 ? 'Nothing is left to refund on this order.' : `At most ${formatEuro(refundable)} can be refunded on this order.`,
      );
    }
    if (!order.payment_reference) throw new ApiError(409, 'NO_CARD_PAYMENT', 'This order has no card payment to refund.');
    const { id } = await trx
      .insertInto('order_refunds')
      .values({
        order_id: input.orderId,
        amount_cents: amount,
        reason: input.reason,
        idempotency_key: input.key,
        created_by_type: input.actor.type,
        created_by_id: input.actor.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { refundId: id, paymentIntentId: order.payment_reference, amountCents: amount, settled: false };
  });
}

function nothingToRefund(): ApiError {
  return new ApiError(
    409,
    'NOTHING_TO_REFUND',
    'Nothing is left to refund on this order: it has been refunded in full, or a refund of the rest is on its way. Reload it.',
  );
}

const REFUNDABLE: readonly OrderStatus[] = ['paid', 'shipped', 'delivered', 'partially_refunded'];

function refusalToRefund(order: { status: OrderStatus; shipped_at: Date | null; delivered_at: Date | null }, actor: Actor) {
  if (REFUNDABLE.includes(order.status)) return null;
  return refusal(order, 'refunded', actor);
}

/** The provider's idempotency key of a refund row: the same row always sends the same key. */
export const refundIdempotencyKey = (refundId: string) => `boatshop-refund-${refundId}`;

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
 * Step two: the provider, with a key derived from the refund row, so a retry refunds once there
 * too. A timeout or a lost connection leaves the row pending: whether the money moved is unknown
 * until the provider is asked again (the admin's retry or the settle-refunds job), never guessed.
 */
async function sendRefund(
  db: Kysely<Database>,
  payments: PaymentProvider,
  log: FastifyBaseLogger,
  orderId: string,
  pending: PendingRefund,
): Promise<void> {
  let answer: RefundResult;
  try {
    await db
      .updateTable('order_refunds')
      .set({ sent_at: sql<Date>`now()` })
      .where('id', '=', pending.refundId)
      .execute();
    answer = await payments.refund({
      paymentIntentId: pending.paymentIntentId,
      amountCents: pending.amountCents,
      idempotencyKey: refundIdempotencyKey(pending.refundId),
      metadata: { orderId, refundId: pending.refundId },
    });
  } catch (err) {
    if (err instanceof PaymentProviderRefusal) {
      await db
        .updateTable('order_refunds')
        .set({ status: 'failed' })
        .where('id', '=', pending.refundId)
        .where('status', 'in', UNSETTLED)
        .execute();
      throw new ApiError(422, 'REFUND_REFUSED', `The payment provider refused the refund: ${err.message}`);
    }
    log.error({ err, orderId, refundId: pending.refundId }, 'refund: no answer from the payment provider; left pending');
    throw new ApiError(
      502,
      'PAYMENT_PROVIDER_UNAVAILABLE',
      'The payment service did not answer. The refund stays pending and is checked with the payment service; it will be made once.',
    );
  }
  const status = await db.transaction().execute((trx) => applyRefundAnswer(trx, pending.refundId, answer));
  if (status === 'failed' || status === 'canceled') {
    throw new ApiError(422, 'REFUND_REFUSED', `The payment provider refused the refund: the refund ${answer.id} ${status}.`);
  }
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

export async function refundOrder(
  db: Kysely<Database>,
  payments: PaymentProvider | null,
  log: FastifyBaseLogger,
  input: { orderId: string; amountCents: number; reason: string | null; idempotencyKey: string; actor: Actor },
): Promise<void> {
  const provider = providerOf(payments);
  const pending = await openRefund(db, {
    orderId: input.orderId,
    amountCents: input.amountCents,
    reason: input.reason,
    key: `refund:${input.orderId}:${input.idempotencyKey}`,
    actor: input.actor,
    target: 'refund',
  });
  if (!pending || pending.settled) return;
  await sendRefund(db, provider, log, input.orderId, pending);
}
/**
 * Cancels an order before it ships. A paid one is refunded in full first (one refund, however
 * often cancel is pressed); an unpaid one has its intent cancelled at the provider first, so a
 * payment cannot land on a cancelled order.
 */
export async function cancelOrder(
  db: Kysely<Database>,
  payments: PaymentProvider | null,
  log: FastifyBaseLogger,
  input: { orderId: string; reason: string | null; actor: Actor; deposit?: 'refund' | 'keep' },
): Promise<void> {
  const order = await db
    .selectFrom('orders')
    .select(['status', 'payment_reference', 'deposit_cents'])
    .where('id', '=', input.orderId)
    .executeTakeFirst();
  if (!order) throw notFound('Order not found');
  if (order.status === 'reserved') {
    if (!input.deposit) {
      throw new ApiError(
        400,
        'DEPOSIT_CHOICE_REQUIRED',
        "A reserved order's deposit is refunded or kept: say which (deposit: 'refund' or 'keep').",
      );
    }
    const choice = input.deposit === 'keep' ? 'Deposit kept' : 'Deposit refunded';
    const reason = input.reason ? `${choice}: ${input.reason}` : choice;
    if (input.deposit === 'keep') {
      await db.transaction().execute(async (trx) => {
        await lockOrder(trx, input.orderId);
        const order = await lockOrder(trx, input.orderId);
        // Money received by bank on top of the deposit is not the shop's to keep.
        const byBank = refusalByBank(await refundTotals(trx, input.orderId), null);
        if (byBank) throw byBank;
        await transitionOrder(trx, {
          orderId: input.orderId,
          to: 'cancelled',
          from: ['reserved'],
          actor: input.actor,
          note: reason,
          keptCents: order.deposit_cents ?? 0,
        });
      });
      return;
    }
    input = { ...input, reason };
  }
  if (order.status === 'pending' || order.status === 'failed') {
    let paidMeanwhile = false;
    if (order.payment_reference) {
      const intent = await providerOf(payments)
        .cancelIntent(order.payment_reference, 'requested_by_customer')
        .catch((err: unknown) => {
          log.error({ err, orderId: input.orderId }, 'payment intent could not be cancelled');
          throw new ApiError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment service did not answer; the order was not cancelled.');
        });
      if (intent.status === 'succeeded') {
        // Paid while the admin cancelled (the webhook may not have come yet): the payment is
        // booked, and the cancellation goes on as for a paid order, with a full refund.
        await db.transaction().execute((trx) => applyPaymentIntentState(trx, log, intent, PROVIDER));
        paidMeanwhile = true;
      }
    }
    if (!paidMeanwhile) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('order_payments')
          .set({ status: 'canceled' })
          .where('order_id', '=', input.orderId)
          .where('status', 'in', ['pending', 'failed'])
          .execute();
        const done = await tryTransitionOrder(trx, {
          orderId: input.orderId,
          to: 'cancelled',
          from: ['pending', 'failed'],
          actor: input.actor,
          note: input.reason,
          changes: { cart_key: null },
        });
        if (done) return;
        // The provider's webhook of this very cancellation got here first: the order is cancelled,
        // which is what the admin asked. Anything else moved it meanwhile: say where it is.
        const now = await trx.selectFrom('orders').select('status').where('id', '=', input.orderId).executeTakeFirstOrThrow();
        if (now.status !== 'cancelled') throw invalidTransition(now.status, 'cancelled');
      });
      return;
    }
    const now = await db.selectFrom('orders').select(['status', 'deposit_cents']).where('id', '=', input.orderId).executeTakeFirstOrThrow();
    if (now.status === 'reserved') {
      // A deposit just paid: the admin's cancellation refunds it (no keep choice was offered).
      input = { ...input, reason: input.reason ? `Deposit refunded: ${input.reason}` : 'Deposit refunded' };
    }
  }
  const pending = await openRefund(db, {
    orderId: input.orderId,
    amountCents: 'all',
    reason: input.reason,
    key: `cancel:${input.orderId}`,
    actor: input.actor,
    target: 'cancel',
  });
  if (pending === null) {
    // Nothing left to refund (refunded at the provider already): just cancel.
    await db
      .transaction()
      .execute((trx) =>
        transitionOrder(trx, { orderId: input.orderId, to: 'cancelled', actor: input.actor, note: input.reason }).then(() => undefined),
      );
    return;
  }
  if (pending.settled) return;
  await sendRefund(db, providerOf(payments), log, input.orderId, pending);
}
