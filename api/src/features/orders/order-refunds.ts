// The staff's refund and cancellation of an order: step one writes the refund row under the
// order's lock (refund-totals.ts says what may go back), step two sends it to the provider, and
// refund-settlement.ts books the provider's answer.
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { PaymentProviderRefusal, type PaymentProvider, type RefundResult } from '../payments/payment-provider.js';
import { applyPaymentIntentState } from '../payments/payment-transitions.js';
import { invalidTransition, PROVIDER, refusal, transitionOrder, tryTransitionOrder, type Actor } from './order-state.js';
import { applyRefundAnswer } from './refund-settlement.js';
import { lockOrder, refundableCents, refundIdempotencyKey, refundTotals, refusalByBank, UNSETTLED } from './refund-totals.js';
import type { OrderStatus } from '@boatshop/contract';

// The payment routes take these from here with the rest of the refund steps.
export { applyRefundAnswer, sendUnsentRefundsOfOrder, settleUnsettledRefunds } from './refund-settlement.js';

function providerOf(payments: PaymentProvider | null): PaymentProvider {
  if (!payments) throw new ApiError(503, 'PAYMENTS_UNAVAILABLE', 'The payment provider is not configured; nothing was refunded.');
  return payments;
}

interface PendingRefund {
  refundId: string;
  paymentIntentId: string;
  amountCents: number;
  /** settled already (succeeded): nothing to send */
  settled: boolean;
}

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
