import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // One row per provider event: a replayed or re-delivered webhook finds its id taken and is ignored.
  await db.schema
    .createTable('payment_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payment_reference', 'text')
    .addColumn('received_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_events_payment_reference_idx').on('payment_events').column('payment_reference').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_events').execute();
}
