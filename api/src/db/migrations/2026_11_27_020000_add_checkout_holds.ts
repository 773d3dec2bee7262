import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // Until when an open order's units are held (null: no deadline, e.g. a hold placed by hand), and
  // the client address the checkout came from (the per-address limit of open holds).
  await db.schema
    .alterTable('orders')
    .addColumn('hold_expires_at', sql`timestamptz(3)`)
    .addColumn('client_address', 'text')
    .execute();
  // The hold-expiry job's scan and the limits' counts read only orders still holding units.
  await sql`create index orders_open_holds_idx on orders (hold_expires_at) where stock_status = 'reserved'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_open_holds_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('hold_expires_at').dropColumn('client_address').execute();
}
