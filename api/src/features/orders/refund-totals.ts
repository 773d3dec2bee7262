// What an order's refunds may still be: the totals from the ledger, the refusal of card refunds
// for money a bank transfer paid, and the order row lock every refund step takes first.
import type { Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { cardRefundableCents, orderMoney } from '../ledger/ledger.js';

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
export function refusalByBank(totals: RefundTotals, amountCents: number | null): ApiError | null {
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

/** The order row, locked: refund steps of one order run one after another. */
export async function lockOrder(trx: Transaction<Database>, orderId: string) {
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'status', 'shipped_at', 'delivered_at', 'payment_reference', 'deposit_cents'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!order) throw notFound('Order not found');
  return order;
}

/** Refund rows the provider has not settled: still held against what may be refunded. */
export const UNSETTLED = ['pending', 'requires_action'] as const;

/** The provider's idempotency key of a refund row: the same row always sends the same key. */
export const refundIdempotencyKey = (refundId: string) => `boatshop-refund-${refundId}`;
