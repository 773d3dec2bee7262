import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Only what PostgreSQL 15 offers, since PGlite (PostgreSQL 18 inside) must produce the same schema.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (col) => col.notNull().check(sql`btrim(email) <> ''`))
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('roles', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{user}'`))
    .addColumn('password_hash', 'text')
    .addColumn('email_verified', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('revoked_at', sql`timestamptz(3)`)
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  // A product missing its name, picture or price must never reach the shop: the database refuses it.
  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (col) => col.notNull().check(sql`btrim(name) <> ''`))
    .addColumn('thumbnail_url', 'text', (col) => col.notNull().check(sql`btrim(thumbnail_url) <> ''`))
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents > 0`))
    .addColumn('description_html', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('category', 'text', (col) => col.notNull().check(sql`category in ('sailing-boats', 'yachts')`))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('search', sql`tsvector`, (col) =>
      col
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('english', name), 'A') || setweight(to_tsvector('english', regexp_replace(description_html, '<[^>]*>', ' ', 'g')), 'B')`,
        )
        .stored(),
    )
    .execute();
  await sql`create index products_created_at_id_idx on products (created_at desc, id desc)`.execute(db);
  await sql`create index products_category_created_at_id_idx on products (category, created_at desc, id desc)`.execute(db);
  await sql`create index products_search_idx on products using gin (search)`.execute(db);

  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'paid', 'failed')`),
    )
    .addColumn('total_cents', 'bigint', (col) => col.notNull().check(sql`total_cents >= 0`))
    .addColumn('currency', 'text', (col) => col.notNull().defaultTo('eur'))
    .addColumn('shipping', 'jsonb', (col) => col.notNull())
    .addColumn('billing', 'jsonb', (col) => col.notNull())
    .addColumn('payment_reference', 'text', (col) => col.unique())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('paid_at', sql`timestamptz(3)`)
    .execute();
  await sql`create index orders_user_id_created_at_idx on orders (user_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('order_items')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('product_id', 'uuid', (col) => col.references('products.id').onDelete('set null'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('thumbnail_url', 'text', (col) => col.notNull())
    .addColumn('unit_price_cents', 'bigint', (col) => col.notNull().check(sql`unit_price_cents >= 0`))
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .execute();
  await db.schema.createIndex('order_items_order_id_idx').on('order_items').column('order_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_items').execute();
  await db.schema.dropTable('orders').execute();
  await db.schema.dropTable('products').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
