import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import type { PaymentProvider } from '../payments/payment-provider.js';
import { orderMoney } from './ledger.js';

export const RECONCILIATION_QUEUE = 'ledger.reconcile';

export type MismatchKind = 'card_capture' | 'card_refunds' | 'bank_in' | 'bank_out';

interface Mismatch {
  orderId: string;
  kind: MismatchKind;
  ledgerCents: number;
  sourceCents: number;
  detail: string;
}

const WHAT: Record<MismatchKind, string> = {
  card_capture: 'card payment captured at the provider',
  card_refunds: 'card refunds made by the provider',
  bank_in: 'bank transfers recorded',
  bank_out: 'bank refunds recorded',
};

/**
 * One order's ledger against the provider's record of its intent (capture, refunds done) and the
 * bank lines recorded for it (order_payments and order_refunds by bank transfer). Refunds still in
 * flight are left to the settle-refunds job: only settled ones are compared.
 */
async function mismatchesOf(db: Kysely<Database>, payments: PaymentProvider | null, orderId: string): Promise<Mismatch[]> {
  const money = await orderMoney(db, orderId);
  if (!money) return [];
  const order = await db.selectFrom('orders').select('payment_reference').where('id', '=', orderId).executeTakeFirstOrThrow();
  const found: Mismatch[] = [];
  const compare = (kind: MismatchKind, ledgerCents: number, sourceCents: number) => {
    if (ledgerCents === sourceCents) return;
    found.push({
      orderId,
      kind,
      ledgerCents,
      sourceCents,
      detail: `The ledger holds ${formatEuro(ledgerCents)} of ${WHAT[kind]}; ${kind.startsWith('card') ? 'the provider says' : 'the bank lines say'} ${formatEuro(sourceCents)}.`,
    });
  };
  if (payments && order.payment_reference) {
    const intent = await payments.retrieveIntent(order.payment_reference);
    const captured = intent.status === 'succeeded' ? intent.amountCents : 0;
    // A capture on an order closed before it landed is an unmatched payment, not the order's money.
    const unmatched = await db.selectFrom('unmatched_payments').select('id').where('provider_reference', '=', intent.id).executeTakeFirst();
    if (!unmatched) compare('card_capture', money.cardReceivedCents, captured);
    if (payments.listRefunds && captured > 0) {
      const refunds = await payments.listRefunds(order.payment_reference);
      const done = refunds.filter((refund) => refund.status === 'succeeded').reduce((sum, refund) => sum + refund.amountCents, 0);
      compare('card_refunds', money.cardRefundedCents, done);
    }
  }
  const bank = await db
    .selectFrom('orders as o')
    .select([
      sql<string>`(select coalesce(sum(p.amount_cents), 0) from order_payments p where p.order_id = o.id and p.method = 'bank_transfer' and p.status = 'succeeded')::text`.as(
        'bank_in',
      ),
      sql<string>`(select coalesce(sum(r.amount_cents), 0) from order_refunds r where r.order_id = o.id and r.method = 'bank_transfer' and r.status = 'succeeded')::text`.as(
        'bank_out',
      ),
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirstOrThrow();
  compare('bank_in', money.bankReceivedCents, Number(bank.bank_in));
  compare('bank_out', money.bankRefundedCents, Number(bank.bank_out));
  return found;
}

/**
 * The reconciliation (daily job, and the admin's button): every order with money or a payment
 * attempt in the last `days` is compared; each difference becomes an alert, once (the fingerprint
 * holds the order, what differs and both figures). A provider that does not answer about one order
 * is logged and that order is checked next run. Answers how many orders were checked and how many
 * new alerts were raised.
 */
export async function reconcileLedgers(
  db: Kysely<Database>,
  payments: PaymentProvider | null,
  log: FastifyBaseLogger,
  days = 120,
): Promise<{ checked: number; raised: number }> {
  const orders = await db
    .selectFrom('orders')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('payment_reference', 'is not', null),
        eb.exists(eb.selectFrom('order_ledger_entries as e').select('e.id').whereRef('e.order_id', '=', 'orders.id')),
      ]),
    )
    .where('created_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
    .orderBy('created_at')
    .execute();
  let raised = 0;
  for (const { id } of orders) {
    let found: Mismatch[];
    try {
      found = await mismatchesOf(db, payments, id);
    } catch (err) {
      log.error({ err, orderId: id }, 'reconciliation: the provider did not answer about this order; checked next run');
      continue;
    }
    for (const mismatch of found) {
      const inserted = await db
        .insertInto('reconciliation_alerts')
        .values({
          order_id: mismatch.orderId,
          kind: mismatch.kind,
          ledger_cents: mismatch.ledgerCents,
          source_cents: mismatch.sourceCents,
          detail: mismatch.detail,
          fingerprint: `${mismatch.orderId}:${mismatch.kind}:${mismatch.ledgerCents}:${mismatch.sourceCents}`,
        })
        .onConflict((oc) => oc.column('fingerprint').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        raised += 1;
        log.error({ orderId: mismatch.orderId, kind: mismatch.kind }, `reconciliation: ${mismatch.detail}`);
      }
    }
  }
  return { checked: orders.length, raised };
}

export interface ReconciliationAlertView {
  id: string;
  orderId: string;
  kind: string;
  ledgerCents: number;
  sourceCents: number;
  detail: string;
  createdAt: string;
  resolvedAt: string | null;
  resolution: string | null;
}

export async function listReconciliationAlerts(db: Kysely<Database>, open: boolean): Promise<ReconciliationAlertView[]> {
  let query = db.selectFrom('reconciliation_alerts').selectAll().orderBy('created_at', 'desc').limit(200);
  if (open) query = query.where('resolved_at', 'is', null);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    kind: row.kind,
    ledgerCents: Number(row.ledger_cents),
    sourceCents: Number(row.source_cents),
    detail: row.detail,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    resolution: row.resolution,
  }));
}

/** Resolves one alert with the admin's reason, once: a second resolution is 409. */
export async function resolveReconciliationAlert(
  db: Db,
  input: { id: string; userId: string; reason: string },
): Promise<{ orderId: string }> {
  const done = await db
    .updateTable('reconciliation_alerts')
    .set({ resolved_at: sql<Date>`now()`, resolved_by: input.userId, resolution: input.reason })
    .where('id', '=', input.id)
    .where('resolved_at', 'is', null)
    .returning('order_id')
    .executeTakeFirst();
  if (done) return { orderId: done.order_id };
  const exists = await db.selectFrom('reconciliation_alerts').select('id').where('id', '=', input.id).executeTakeFirst();
  if (!exists) throw notFound('Alert not found');
  throw new ApiError(409, 'ALERT_RESOLVED', 'This alert has been resolved already.');
}
