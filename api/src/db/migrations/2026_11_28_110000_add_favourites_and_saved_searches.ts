import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // A shopper's favourite boats: one row per account and boat, so adding twice is one favourite.
  // A deleted boat leaves every list it was on.
  await db.schema
    .createTable('favourites')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('favourites_pkey', ['user_id', 'product_id'])
    .execute();
  await db.schema.createIndex('favourites_product_idx').on('favourites').column('product_id').execute();

  // A shopper's saved searches. `alerted_until`: boats created after it are new to the next alert;
  // `alerted_on`: the UTC day of the last alert run that handled it (one e-mail a day at most).
  await db.schema
    .createTable('saved_searches')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('path', 'text', (col) => col.notNull())
    .addColumn('query', 'jsonb', (col) => col.notNull())
    .addColumn('alerts', 'boolean', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('alerted_until', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('alerted_on', 'date')
    .addColumn('last_alerted_at', sql`timestamptz(3)`)
    .execute();
  await db.schema.createIndex('saved_searches_user_idx').on('saved_searches').columns(['user_id', 'created_at']).execute();
  await sql`create index saved_searches_due_idx on saved_searches (alerted_on) where alerts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_searches').execute();
  await db.schema.dropTable('favourites').execute();
}
