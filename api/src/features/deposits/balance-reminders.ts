import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { enqueueBalanceReminder } from '../outbox/order-mails.js';

/**
 * The overdue check (job `orders.balance-reminders`, daily and on start): every reserved order
 * past its balance due date gets ONE reminder e-mail. The order's `balance_reminder_sent_at` is
 * set by a conditional UPDATE in the transaction that writes the outbox row (whose dedupe key is
 * the order), so runs on several replicas, or twice a day, never remind twice. Admins see such
 * orders as overdue from the due date alone (GET /api/admin/orders?overdue=true).
 * Returns how many reminders this run wrote.
 */
export async function remindOverdueBalances(db: Kysely<Database>, limit = 500): Promise<number> {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'reserved')
    .where(sql<boolean>`balance_due_on < (now() at time zone 'UTC')::date`)
    .where('balance_reminder_sent_at', 'is', null)
    .orderBy('balance_due_on')
    .limit(limit)
    .execute();
  let reminded = 0;
  for (const { id } of due) {
    const wrote = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('orders')
        .set({ balance_reminder_sent_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', '=', 'reserved')
        .where('balance_reminder_sent_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return claimed ? enqueueBalanceReminder(trx, id) : false;
    });
    if (wrote) reminded += 1;
  }
  return reminded;
}
