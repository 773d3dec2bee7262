import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // A difference the reconciliation found between an order's ledger and the provider's or the
  // bank's records, kept until an admin resolves it with a reason. The fingerprint (order, what
  // differs, both figures) makes a daily run that finds the same difference add nothing.
  await db.schema
    .createTable('reconciliation_alerts')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('ledger_cents', 'bigint', (col) => col.notNull())
    .addColumn('source_cents', 'bigint', (col) => col.notNull())
    .addColumn('detail', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', sql`timestamptz(3)`)
    .addColumn('resolved_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('resolution', 'text')
    .execute();
  await sql`create index reconciliation_alerts_open_idx on reconciliation_alerts (created_at) where resolved_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reconciliation_alerts').execute();
}
