import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ApiError, badRequest, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { followRefunds } from '../orders/refund-settlement.js';
import { STATUS_WORDS, type Actor } from '../orders/order-state.js';
import { appendLedgerEntry, orderMoney } from './ledger.js';
import { recordRefundDocument } from '../invoices/money-events.js';

// Money an admin sent back to the buyer from the shop's bank (bank transfer money cannot go back
// through the card). One transaction under the order's row lock: the ledger line is booked and the
// order follows together; the bank's reference is the line's reference, so the same statement line
// recorded twice books once.

export interface BankRefundInput {
  orderId: string;
  amountCents: number;
  /** YYYY-MM-DD */
  refundedOn: string;
  bankReference: string;
  reason: string | null;
  actor: Actor;
}

function checkedDay(value: string): string {
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw badRequest('Invalid request: refundedOn is not a date (YYYY-MM-DD)');
  }
  if (value > new Date().toISOString().slice(0, 10)) throw badRequest('Invalid request: refundedOn is in the future');
  if (value < '2000-01-01') throw badRequest('Invalid request: refundedOn is before 2000');
  return value;
}

/** Orders whose money may go back by bank: those that hold some. */
const OPEN_TO_BANK_REFUND = ['reserved', 'paid', 'shipped', 'delivered', 'partially_refunded', 'cancelled'] as const;

/** Records one bank refund (or finds it recorded already). */
export async function recordBankRefund(db: Kysely<Database>, input: BankRefundInput): Promise<void> {
  const refundedOn = checkedDay(input.refundedOn);
  const bankReference = input.bankReference.trim();
  if (!bankReference) throw badRequest('Invalid request: bankReference is empty');
  const reference = `bank-out:${bankReference}`;

  await db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom('orders').select(['id', 'status']).where('id', '=', input.orderId).forUpdate().executeTakeFirst();
    if (!order) throw notFound('Order not found');
    const recorded = await trx
      .selectFrom('order_ledger_entries')
      .select(['order_id', 'amount_cents'])
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (recorded) {
      if (recorded.order_id === order.id && -Number(recorded.amount_cents) === input.amountCents) return;
      throw new ApiError(409, 'BANK_REFERENCE_USED', `The bank reference ${bankReference} is recorded already for another movement.`);
    }
    if (!(OPEN_TO_BANK_REFUND as readonly string[]).includes(order.status)) {
      throw new ApiError(409, 'INVALID_TRANSITION', `The order is ${STATUS_WORDS[order.status]}; it holds no money to refund.`);
    }
    const money = (await orderMoney(trx, order.id))!;
    const refundable = money.heldCents - money.refundsInFlightCents;
    if (input.amountCents > refundable) {
      throw new ApiError(
        422,
        'REFUND_TOO_LARGE',
        refundable <= 0 ? 'Nothing is left to refund on this order.' : `At most ${formatEuro(refundable)} can be refunded on this order.`,
      );
    }
    await appendLedgerEntry(trx, {
      orderId: order.id,
      kind: 'bank_refund_out',
      amountCents: -input.amountCents,
      source: 'admin',
      reference,
      bookedOn: refundedOn,
      actor: input.actor,
      note: input.reason,
    });
    // books: the bank refund's credit note, in this transaction.
    await recordRefundDocument(trx, { orderId: order.id, refundId: reference, amountCents: input.amountCents });
    // A paid order follows (partially refunded or refunded); a reserved or cancelled one keeps its
    // state: the money goes back so that it can be cancelled, or because it was.
    if (order.status !== 'reserved' && order.status !== 'cancelled') {
      await followRefunds(trx, order.id, { actor: input.actor, amountCents: input.amountCents, note: input.reason, cancel: false });
    }
  });
}
