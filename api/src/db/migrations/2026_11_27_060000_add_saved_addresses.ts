import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // A shopper's address book. Orders copy the address they ship and bill to, so changing or
  // deleting a saved one never touches an order.
  await db.schema
    .createTable('saved_addresses')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('shipping', 'billing')`))
    .addColumn('is_default', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('address', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('saved_addresses_user_idx').on('saved_addresses').columns(['user_id', 'kind', 'created_at']).execute();
  // At most one default of each kind per account, whatever two requests do at once.
  await sql`create unique index saved_addresses_one_default on saved_addresses (user_id, kind) where is_default`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_addresses').execute();
}
