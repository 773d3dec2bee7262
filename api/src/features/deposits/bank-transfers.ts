import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { appendLedgerEntry, orderMoney } from '../ledger/ledger.js';
import { recordPaymentDocument } from '../invoices/money-events.js';
import { ApiError, badRequest } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { STATUS_WORDS, type Actor } from '../orders/order-state.js';
import { isValidCreditorReference, normalizeReference } from './deposit-rules.js';
import { lockOrderForPayment, settleOrder, TRANSFER_RECEIVED_NOTE } from './order-settlement.js';

// An admin records a bank transfer received for a reserved order, found by the RF reference the
// shopper quoted. One transaction under the order's row lock: the line is written and the order
// settled together (paid when the total is reached), so two admins recording at once, or the
// same statement line twice, move the order once.

export interface BankTransferInput {
  reference: string;
  amountCents: number;
  /** YYYY-MM-DD */
  receivedOn: string;
  /** the bank's own reference of the statement line */
  bankReference: string;
  actor: Actor;
}

function checkedDay(value: string): string {
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw badRequest('Invalid request: receivedOn is not a date (YYYY-MM-DD)');
  }
  const today = new Date().toISOString().slice(0, 10);
  if (value > today) throw badRequest('Invalid request: receivedOn is in the future');
  if (value < '2000-01-01') throw badRequest('Invalid request: receivedOn is before 2000');
  return value;
}

/** Records the transfer (or finds it recorded already) and answers the order's id. */
export async function recordBankTransfer(db: Kysely<Database>, input: BankTransferInput): Promise<string> {
  const reference = normalizeReference(input.reference);
  if (!isValidCreditorReference(reference)) {
    throw new ApiError(400, 'INVALID_REFERENCE', `${reference} is not a valid RF creditor reference: its check digits do not match.`);
  }
  const receivedOn = checkedDay(input.receivedOn);
  const bankReference = input.bankReference.trim();
  if (!bankReference) throw badRequest('Invalid request: bankReference is empty');
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    throw badRequest('Invalid request: amountCents must be a whole number of cents above 0');
  }

  return db.transaction().execute(async (trx) => {
    const order = await lockOrderForPayment(trx, { bankReference: reference });
    if (!order) throw new ApiError(404, 'UNKNOWN_REFERENCE', `The reference ${reference} matches no order.`);

    const recorded = await trx
      .selectFrom('order_payments')
      .select(['order_id', 'method', 'amount_cents'])
      .where('provider_reference', '=', bankReference)
      .executeTakeFirst();
    if (recorded) {
      if (recorded.order_id !== order.id || recorded.method !== 'bank_transfer') {
        throw new ApiError(409, 'BANK_REFERENCE_USED', `The bank reference ${bankReference} is recorded for another payment already.`);
      }
      if (recorded.amount_cents !== input.amountCents) {
        throw new ApiError(
          409,
          'BANK_REFERENCE_USED',
          `The bank reference ${bankReference} is recorded already, for ${formatEuro(recorded.amount_cents)}.`,
        );
      }
      // The same statement line again: recorded once.
      return order.id;
    }

    if (order.status !== 'reserved') {
      throw new ApiError(409, 'NOT_AWAITING_TRANSFER', `The order is ${STATUS_WORDS[order.status]}; it is not awaiting a bank transfer.`);
    }
    const money = (await orderMoney(trx, order.id))!;
    // A cancellation being refunded: the transfer would land on an order about to close.
    if (money.cancelInFlight) {
      throw new ApiError(409, 'CANCELLATION_IN_PROGRESS', 'The order is being cancelled and refunded; it is not awaiting a bank transfer.');
    }
    // What is still due: the total less what the shop holds (a deposit refunded or lost is due again).
    const due = money.totalCents - money.heldCents - money.writtenOffCents;
    if (input.amountCents > due) {
      throw new ApiError(422, 'OVERPAYMENT', `${formatEuro(input.amountCents)} is more than the ${formatEuro(due)} still due.`);
    }
    const inserted = await trx
      .insertInto('order_payments')
      .values({
        order_id: order.id,
        method: 'bank_transfer',
        amount_cents: input.amountCents,
        provider_reference: bankReference,
        status: 'succeeded',
        confirmed_at: sql<Date>`now()`,
        received_on: receivedOn,
      })
      .onConflict((oc) => oc.column('provider_reference').doNothing())
      .returning('id')
      .executeTakeFirst();
    // Another order's transfer took this bank reference in the meantime.
    if (!inserted)
      throw new ApiError(409, 'BANK_REFERENCE_USED', `The bank reference ${bankReference} is recorded for another payment already.`);
    await appendLedgerEntry(trx, {
      orderId: order.id,
      kind: 'bank_transfer_in',
      amountCents: input.amountCents,
      source: 'bank',
      reference: `bank:${bankReference}`,
      bookedOn: receivedOn,
      actor: input.actor,
      note: TRANSFER_RECEIVED_NOTE,
    });
    await settleOrder(trx, { orderId: order.id, actor: input.actor, amountCents: input.amountCents, method: 'bank_transfer' });
    // books: the final invoice when this transfer completes the order, else an advance invoice.
    await recordPaymentDocument(trx, {
      orderId: order.id,
      paymentId: inserted.id,
      amountCents: input.amountCents,
      method: 'bank_transfer',
    });
    return order.id;
  });
}
