import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { PaymentProviderRefusal, type PaymentProvider } from '../payments/payment-provider.js';
import { refusal, transitionOrder, tryTransitionOrder, type Actor } from './order-state.js';
import type { OrderStatus } from '@boatshop/contract';

export interface RefundTotals {
  /** succeeded payment lines */
  paidCents: number;
  /** succeeded card lines: what the provider can refund (bank transfers go back by bank) */
  cardPaidCents: number;
  /** succeeded refunds */
  refundedCents: number;
  /** succeeded and still pending refunds: what may not be refunded again */
  refundedOrPendingCents: number;
}

export async function refundTotals(db: Db, orderId: string): Promise<RefundTotals> {
  const paid = await db
    .selectFrom('order_payments')
    .select([
      sql<string>`coalesce(sum(amount_cents), 0)::text`.as('cents'),
      sql<string>`coalesce(sum(amount_cents) filter (where method = 'card'), 0)::text`.as('card'),
    ])
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  const refunds = await db
    .selectFrom('order_refunds')
    .select([
      sql<string>`coalesce(sum(amount_cents) filter (where status = 'succeeded'), 0)::text`.as('done'),
      sql<string>`coalesce(sum(amount_cents) filter (where status in ('pending', 'succeeded')), 0)::text`.as('held'),
    ])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  return {
    paidCents: Number(paid.cents),
    cardPaidCents: Number(paid.card),
    refundedCents: Number(refunds.done),
    refundedOrPendingCents: Number(refunds.held),
  };
}

/**
 * What can still be refunded through the card provider. Refunds go back through the card: the
 * money of bank-transfer lines cannot, so it is not counted here (see refusalByBank).
 */
export const refundableCents = (totals: RefundTotals) => Math.max(0, totals.cardPaidCents - totals.refundedOrPendingCents);

/** Money received by bank transfer and not refundable by card: the refusal that says so. */
function refusalByBank(totals: RefundTotals, amountCents: number | null): ApiError | null {
  const bankCents = totals.paidCents - totals.cardPaidCents;
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
    .select(['id', 'status', 'shipped_at', 'delivered_at', 'payment_reference'])
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
  /** a replay of an idempotency key: nothing new to send to the provider */
  replay: boolean;
}

/**
 * Step one of a refund, in one transaction with the order locked: checks the state and the
 * amount and writes the refund as pending, so a concurrent refund sees it held.
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
      // A failed attempt may be tried again under the same key; anything else was done already.
      if (existing.status !== 'failed') {
        return { refundId: existing.id, paymentIntentId: order.payment_reference ?? '', amountCents: existing.amount_cents, replay: true };
      }
      await trx.deleteFrom('order_refunds').where('id', '=', existing.id).execute();
    }

    const refused = input.target === 'cancel' ? refusal(order, 'cancelled', input.actor) : refusalToRefund(order, input.actor);
    if (refused) throw refused;
    const totals = await refundTotals(trx, input.orderId);
    const refundable = refundableCents(totals);
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
    return { refundId: id, paymentIntentId: order.payment_reference, amountCents: amount, replay: false };
  });
}

const REFUNDABLE: readonly OrderStatus[] = ['paid', 'shipped', 'delivered', 'partially_refunded'];

function refusalToRefund(order: { status: OrderStatus; shipped_at: Date | null; delivered_at: Date | null }, actor: Actor) {
  if (REFUNDABLE.includes(order.status)) return null;
  return refusal(order, 'refunded', actor);
}

/** Step two: the provider, with a key derived from the refund row, so a retry refunds once there too. */
async function sendRefund(
  db: Kysely<Database>,
  payments: PaymentProvider,
  log: FastifyBaseLogger,
  orderId: string,
  pending: PendingRefund,
): Promise<string> {
  try {
    const refund = await payments.refund({
      paymentIntentId: pending.paymentIntentId,
      amountCents: pending.amountCents,
      idempotencyKey: `boatshop-refund-${pending.refundId}`,
      metadata: { orderId, refundId: pending.refundId },
    });
    if (refund.status === 'failed' || refund.status === 'canceled')
      throw new PaymentProviderRefusal(`The refund ${refund.id} ${refund.status}.`);
    return refund.id;
  } catch (err) {
    await db
      .updateTable('order_refunds')
      .set({ status: 'failed' })
      .where('id', '=', pending.refundId)
      .where('status', '=', 'pending')
      .execute();
    if (err instanceof PaymentProviderRefusal) {
      throw new ApiError(422, 'REFUND_REFUSED', `The payment provider refused the refund: ${err.message}`);
    }
    log.error({ err, orderId, refundId: pending.refundId }, 'refund could not be sent to the payment provider');
    throw new ApiError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment service did not answer. Nothing was refunded; please try again.');
  }
}

/**
 * Step three: the provider made the refund; the row becomes succeeded and the order follows (a
 * cancellation's refund cancels it), in the caller's transaction. Called after the provider's
 * answer and again for its `refund.created` webhook, which names the row in its metadata: whichever
 * comes first completes it (a crash between the provider's answer and this step is healed by the
 * webhook), the other finds nothing to do. The money moved whatever the order's state: if the
 * order has meanwhile gone where no refund transition leads (a dispute), the row still counts.
 */
export async function finishRefund(trx: Transaction<Database>, refundId: string, providerReference: string): Promise<boolean> {
  const refund = await trx.selectFrom('order_refunds').select('order_id').where('id', '=', refundId).executeTakeFirst();
  if (!refund) return false;
  await lockOrder(trx, refund.order_id);
  const done = await trx
    .updateTable('order_refunds')
    .set({ status: 'succeeded', provider_reference: providerReference })
    .where('id', '=', refundId)
    .where('status', '=', 'pending')
    .returning(['order_id', 'amount_cents', 'reason', 'idempotency_key', 'created_by_type', 'created_by_id'])
    .executeTakeFirst();
  if (!done) return false;
  const totals = await refundTotals(trx, done.order_id);
  const to: OrderStatus = done.idempotency_key?.startsWith('cancel:')
    ? 'cancelled'
    : totals.refundedCents >= totals.paidCents
      ? 'refunded'
      : 'partially_refunded';
  await tryTransitionOrder(trx, {
    orderId: done.order_id,
    to,
    actor: { type: done.created_by_type, id: done.created_by_id },
    amountCents: done.amount_cents,
    note: done.reason,
  });
  return true;
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
  if (!pending || pending.replay) return;
  const reference = await sendRefund(db, provider, log, input.orderId, pending);
  await db.transaction().execute((trx) => finishRefund(trx, pending.refundId, reference));
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
        // Money received by bank on top of the deposit is not the shop's to keep.
        const byBank = refusalByBank(await refundTotals(trx, input.orderId), null);
        if (byBank) throw byBank;
        await transitionOrder(trx, { orderId: input.orderId, to: 'cancelled', from: ['reserved'], actor: input.actor, note: reason });
      });
      return;
    }
    input = { ...input, reason };
  }
  if (order.status === 'pending' || order.status === 'failed') {
    if (order.payment_reference) {
      const intent = await providerOf(payments)
        .cancelIntent(order.payment_reference)
        .catch((err: unknown) => {
          log.error({ err, orderId: input.orderId }, 'payment intent could not be cancelled');
          throw new ApiError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment service did not answer; the order was not cancelled.');
        });
      if (intent.status === 'succeeded') {
        throw new ApiError(409, 'INVALID_TRANSITION', 'The order has just been paid; it cannot be cancelled without a refund. Reload it.');
      }
    }
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('order_payments')
        .set({ status: 'canceled' })
        .where('order_id', '=', input.orderId)
        .where('status', 'in', ['pending', 'failed'])
        .execute();
      await transitionOrder(trx, {
        orderId: input.orderId,
        to: 'cancelled',
        actor: input.actor,
        note: input.reason,
        changes: { cart_key: null },
      });
    });
    return;
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
  if (pending.replay) return;
  const reference = await sendRefund(db, providerOf(payments), log, input.orderId, pending);
  await db.transaction().execute((trx) => finishRefund(trx, pending.refundId, reference));
}
