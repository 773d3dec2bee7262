import { sql, type Transaction } from 'kysely';
import { orderMoney } from '../ledger/ledger.js';
import type { Database } from '../../db/database.js';
import { tryTransitionOrder, type Actor, type Transition } from '../orders/order-state.js';
import type { OrderStatus } from '@boatshop/contract';

type Trx = Transaction<Database>;

// Where an order stands once a payment line has succeeded: paid when the confirmed lines reach
// the total, reserved when a deposit order has its deposit. Every caller (the card's webhook, the
// shopper's confirmation, an admin recording a bank transfer) holds the order's row lock from
// before it wrote its line until its transaction ends, so the sum read here is final and the paid
// transition happens exactly once, whatever order the confirmations arrive in.

export const DEPOSIT_PAID_NOTE = 'Deposit paid';
export const TRANSFER_RECEIVED_NOTE = 'Bank transfer received';

/** The order's row, locked for the rest of the transaction. */
export async function lockOrderForPayment(trx: Trx, where: { orderId: string } | { paymentReference: string } | { bankReference: string }) {
  let query = trx
    .selectFrom('orders')
    .select(['id', 'status', 'total_cents', 'deposit_cents', 'currency', 'payment_reference', 'bank_reference']);
  if ('orderId' in where) query = query.where('id', '=', where.orderId);
  else if ('paymentReference' in where) query = query.where('payment_reference', '=', where.paymentReference);
  else query = query.where('bank_reference', '=', where.bankReference);
  return query.forUpdate().executeTakeFirst();
}

/** What the buyer's payments are worth now (received less lost disputes), from the ledger. */
export async function confirmedCents(trx: Trx, orderId: string): Promise<number> {
  return (await orderMoney(trx, orderId))?.collectedCents ?? 0;
}

const OPEN: readonly OrderStatus[] = ['pending', 'failed'];

/**
 * Moves a locked order to where its confirmed payments put it, after a line of `amountCents`
 * succeeded: paid (sum ≥ total), reserved (a deposit order's first money), or, for a bank
 * transfer that leaves a balance, a reserved → reserved event. Answers the transition made.
 */
export async function settleOrder(
  trx: Trx,
  input: { orderId: string; actor: Actor; amountCents: number; method: 'card' | 'bank_transfer' },
): Promise<Transition | undefined> {
  const order = await lockOrderForPayment(trx, { orderId: input.orderId });
  if (!order) return undefined;
  const money = await orderMoney(trx, order.id);
  if (!money) return undefined;
  // What the shop holds: refunds and money in dispute do not count toward the total.
  const paid = money.atRiskCents > 0 ? 0 : money.heldCents;
  const note = input.method === 'bank_transfer' ? TRANSFER_RECEIVED_NOTE : order.deposit_cents !== null ? DEPOSIT_PAID_NOTE : null;
  if (paid >= order.total_cents && (OPEN.includes(order.status) || order.status === 'reserved')) {
    return tryTransitionOrder(trx, {
      orderId: order.id,
      to: 'paid',
      from: [...OPEN, 'reserved'],
      actor: input.actor,
      amountCents: input.amountCents,
      note,
      changes: { paid_at: new Date(), cart_key: null },
    });
  }
  if (paid > 0 && order.deposit_cents !== null && OPEN.includes(order.status)) {
    const reserved = await tryTransitionOrder(trx, {
      orderId: order.id,
      to: 'reserved',
      from: OPEN,
      actor: input.actor,
      amountCents: input.amountCents,
      note: DEPOSIT_PAID_NOTE,
      changes: { cart_key: null },
    });
    // The checkout wrote the due date as (day it opened + BALANCE_DUE_DAYS); the days count from today.
    if (reserved) {
      await sql`
        update orders
        set balance_due_on = (now() at time zone 'UTC')::date + (balance_due_on - (created_at at time zone 'UTC')::date)
        where id = ${order.id}::uuid and balance_due_on is not null
      `.execute(trx);
    }
    return reserved;
  }
  if (order.status === 'reserved' && input.method === 'bank_transfer') {
    return tryTransitionOrder(trx, {
      orderId: order.id,
      to: 'reserved',
      from: ['reserved'],
      actor: input.actor,
      amountCents: input.amountCents,
      note: TRANSFER_RECEIVED_NOTE,
    });
  }
  return undefined;
}
