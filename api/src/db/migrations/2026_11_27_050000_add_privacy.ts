import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // An erased account keeps its row (orders and invoices point to it) with nothing personal left.
  await db.schema
    .alterTable('users')
    .addColumn('erased_at', sql`timestamptz(3)`)
    .execute();

  // A shopper's export and erasure requests: the e-mailed link's token is stored hashed.
  await db.schema
    .createTable('privacy_requests')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('export', 'erasure')`))
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('awaiting_confirmation', 'preparing', 'ready', 'done', 'withdrawn')`),
    )
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('archive', 'jsonb')
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('completed_at', sql`timestamptz(3)`)
    .execute();
  await db.schema.createIndex('privacy_requests_user_idx').on('privacy_requests').columns(['user_id', 'created_at']).execute();
  // One erasure waiting for its link at a time.
  await sql`create unique index privacy_requests_one_open_erasure on privacy_requests (user_id)
    where kind = 'erasure' and state = 'awaiting_confirmation'`.execute(db);

  // What a shopper agreed to or withdrew, when, and the wording they saw: rows are only added.
  await db.schema
    .createTable('consents')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('topic', 'text', (col) => col.notNull())
    .addColumn('granted', 'boolean', (col) => col.notNull())
    .addColumn('wording', 'text', (col) => col.notNull())
    .addColumn('recorded_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('consents_user_topic_idx').on('consents').columns(['user_id', 'topic', 'recorded_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('consents').execute();
  await db.schema.dropTable('privacy_requests').execute();
  await db.schema.alterTable('users').dropColumn('erased_at').execute();
}
