import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Deposits and the balance by bank transfer: the `reserved` state (deposit paid,
// balance due), the order's deposit, its ISO 11649 reference and due date, the reminder sent
// once, and the day a bank transfer was received.

const ORDER_STATES = [
  'pending',
  'reserved',
  'paid',
  'shipped',
  'delivered',
  'cancelled',
  'refunded',
  'partially_refunded',
  'disputed',
  'expired',
  'failed',
];

const stateList = (states: string[]) => sql.join(states.map((state) => sql.lit(state)));

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint if exists orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check check (status in (${stateList(ORDER_STATES)}))`.execute(db);
  await db.schema
    .alterTable('orders')
    // What the card pays when the order is reserved with a deposit; null for orders paid in full.
    .addColumn('deposit_cents', 'bigint', (col) => col.check(sql`deposit_cents > 0`))
    // RF… (ISO 11649), the reference the shopper's bank transfer carries.
    .addColumn('bank_reference', 'text', (col) => col.unique())
    .addColumn('balance_due_on', 'date')
    .addColumn('balance_reminder_sent_at', sql`timestamptz(3)`)
    .execute();
  // The overdue check reads reserved orders by due date.
  await sql`create index orders_reserved_due_idx on orders (balance_due_on) where status = 'reserved'`.execute(db);

  await db.schema.alterTable('order_payments').addColumn('received_on', 'date').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_payments').dropColumn('received_on').execute();
  await sql`drop index orders_reserved_due_idx`.execute(db);
  await db.schema
    .alterTable('orders')
    .dropColumn('deposit_cents')
    .dropColumn('bank_reference')
    .dropColumn('balance_due_on')
    .dropColumn('balance_reminder_sent_at')
    .execute();
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check check (status in (${stateList(ORDER_STATES.filter((s) => s !== 'reserved'))}))`.execute(
    db,
  );
}
