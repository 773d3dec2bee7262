import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { Actor } from '../orders/order-state.js';
import type { LedgerKind, LedgerSource } from './ledger.table.js';

// The order's money, derived from its ledger (order_ledger_entries) in one SQL statement: never
// from counters kept beside it. See docs/ledger.md for the signs of each kind.

export interface OrderMoney {
  totalCents: number;
  /** the deposit a deposit order's card pays; null: paid in full */
  depositCents: number | null;
  /** card captures and bank transfers in */
  receivedCents: number;
  cardReceivedCents: number;
  bankReceivedCents: number;
  /** refunds to the card and bank refunds out, done */
  refundedCents: number;
  cardRefundedCents: number;
  bankRefundedCents: number;
  /** disputed and not closed yet: taken by the bank, may come back */
  atRiskCents: number;
  /** disputes lost: gone for good */
  lostCents: number;
  writtenOffCents: number;
  /** received less what a lost dispute took: what the buyer's payments are still worth */
  collectedCents: number;
  /** what the shop holds for the order now: collected − refunded − at risk */
  heldCents: number;
  /** still to come from the buyer: total − collected − written off, never below 0 */
  owedCents: number;
  /** card refunds the provider has not settled yet (pending, requires_action) */
  refundsInFlightCents: number;
  /** a cancellation's refund is in flight: nothing else may move the order meanwhile */
  cancelInFlight: boolean;
}

interface MoneyRow {
  total_cents: string;
  deposit_cents: string | null;
  card_in: string;
  bank_in: string;
  card_out: string;
  bank_out: string;
  at_risk: string;
  lost: string;
  written_off: string;
  in_flight: string;
  cancel_in_flight: boolean;
}

/**
 * What the order has received, refunded, has at risk and still owes, from its ledger. Call it
 * under the order's row lock when a decision depends on it (transitionOrder does). The `books`
 * feature uses it for invoices. Undefined when there is no such order.
 */
export async function orderMoney(db: Db, orderId: string): Promise<OrderMoney | undefined> {
  const { rows } = await sql<MoneyRow>`
    select o.total_cents::text, o.deposit_cents::text,
      coalesce(l.card_in, 0)::text as card_in, coalesce(l.bank_in, 0)::text as bank_in,
      coalesce(l.card_out, 0)::text as card_out, coalesce(l.bank_out, 0)::text as bank_out,
      coalesce(l.at_risk, 0)::text as at_risk, coalesce(l.lost, 0)::text as lost,
      coalesce(l.written_off, 0)::text as written_off,
      coalesce(r.in_flight, 0)::text as in_flight, coalesce(r.cancel_in_flight, false) as cancel_in_flight
    from orders o
    left join lateral (
      select
        sum(e.amount_cents) filter (where e.kind = 'card_capture') as card_in,
        sum(e.amount_cents) filter (where e.kind = 'bank_transfer_in') as bank_in,
        -sum(e.amount_cents) filter (where e.kind = 'card_refund') as card_out,
        -sum(e.amount_cents) filter (where e.kind = 'bank_refund_out') as bank_out,
        -sum(e.amount_cents) filter (where e.kind = 'dispute_opened' and c.kind is null) as at_risk,
        -sum(e.amount_cents) filter (where e.kind = 'dispute_opened' and c.kind = 'dispute_lost') as lost,
        sum(e.amount_cents) filter (where e.kind = 'write_off') as written_off
      from order_ledger_entries e
      left join lateral (
        select c.kind from order_ledger_entries c
        where e.kind = 'dispute_opened' and c.dispute_id = e.dispute_id and c.kind <> 'dispute_opened'
        limit 1
      ) c on true
      where e.order_id = o.id
    ) l on true
    left join lateral (
      select sum(f.amount_cents) as in_flight, bool_or(f.idempotency_key like 'cancel:%') as cancel_in_flight
      from order_refunds f
      where f.order_id = o.id and f.status in ('pending', 'requires_action')
    ) r on true
    where o.id = ${orderId}::uuid
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const n = Number;
  const total = n(row.total_cents);
  const cardIn = n(row.card_in);
  const bankIn = n(row.bank_in);
  const cardOut = n(row.card_out);
  const bankOut = n(row.bank_out);
  const atRisk = n(row.at_risk);
  const lost = n(row.lost);
  const writtenOff = n(row.written_off);
  const received = cardIn + bankIn;
  const refunded = cardOut + bankOut;
  const collected = received - lost;
  return {
    totalCents: total,
    depositCents: row.deposit_cents === null ? null : n(row.deposit_cents),
    receivedCents: received,
    cardReceivedCents: cardIn,
    bankReceivedCents: bankIn,
    refundedCents: refunded,
    cardRefundedCents: cardOut,
    bankRefundedCents: bankOut,
    atRiskCents: atRisk,
    lostCents: lost,
    writtenOffCents: writtenOff,
    collectedCents: collected,
    heldCents: collected - refunded - atRisk,
    owedCents: Math.max(0, total - collected - writtenOff),
    refundsInFlightCents: n(row.in_flight),
    cancelInFlight: row.cancel_in_flight,
  };
}

/**
 * What can still go back to the card: card money received, less card refunds done or in flight,
 * less what disputes hold or took (the bank has it), and never more than the shop holds.
 */
export function cardRefundableCents(money: OrderMoney): number {
  const card = money.cardReceivedCents - money.cardRefundedCents - money.refundsInFlightCents - money.atRiskCents - money.lostCents;
  return Math.max(0, Math.min(card, money.heldCents - money.refundsInFlightCents));
}

export interface LedgerEntryInput {
  orderId: string;
  kind: LedgerKind;
  /** signed, as the kind requires (see docs/ledger.md) */
  amountCents: number;
  source: LedgerSource;
  reference: string;
  disputeId?: string | null;
  /** YYYY-MM-DD; today by default */
  bookedOn?: string;
  actor: Actor;
  note?: string | null;
}

/**
 * Appends one movement, in the caller's transaction (which holds the order's row lock). A
 * reference booked already is not booked again: answers false then (a replayed webhook, the same
 * statement line twice).
 */
export async function appendLedgerEntry(trx: Transaction<Database>, entry: LedgerEntryInput): Promise<boolean> {
  const inserted = await trx
    .insertInto('order_ledger_entries')
    .values({
      order_id: entry.orderId,
      kind: entry.kind,
      amount_cents: entry.amountCents,
      source: entry.source,
      reference: entry.reference,
      dispute_id: entry.disputeId ?? null,
      ...(entry.bookedOn ? { booked_on: entry.bookedOn } : {}),
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      note: entry.note ?? null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface LedgerLine {
  id: string;
  kind: LedgerKind;
  amountCents: number;
  source: LedgerSource;
  reference: string;
  bookedOn: string;
  at: Date;
  actorType: string;
  note: string | null;
  /** what the shop held for the order after this line */
  balanceCents: number;
}

/** The order's ledger, oldest first, each line with the running balance of money held. */
export async function ledgerLines(db: Db, orderId: string): Promise<LedgerLine[]> {
  const rows = await db
    .selectFrom('order_ledger_entries')
    .select([
      'id',
      'kind',
      sql<string>`amount_cents::text`.as('amount'),
      'source',
      'reference',
      sql<string>`to_char(booked_on, 'YYYY-MM-DD')`.as('booked_on'),
      'created_at',
      'actor_type',
      'note',
      sql<string>`(sum(case when kind = 'write_off' then 0 else amount_cents end) over (order by created_at, id))::text`.as('balance'),
    ])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    amountCents: Number(row.amount),
    source: row.source,
    reference: row.reference,
    bookedOn: row.booked_on,
    at: row.created_at,
    actorType: row.actor_type,
    note: row.note,
    balanceCents: Number(row.balance),
  }));
}
