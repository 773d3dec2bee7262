import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Order operations (shipping, delivery, cancellation and refunds by admins): the full order lifecycle, its event log, payment lines, refunds,
// money received without an order, and the e-mail outbox. Only what PostgreSQL 15 offers.

const ORDER_STATES = [
  'pending',
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

const stateList = sql.join(ORDER_STATES.map((state) => sql.lit(state)));

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint if exists orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check check (status in (${stateList}))`.execute(db);
  await db.schema
    .alterTable('orders')
    // The shopper and the cart's content, hashed: pressing Pay twice finds the open order again.
    .addColumn('cart_key', 'text')
    .addColumn('carrier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('shipped_at', sql`timestamptz(3)`)
    .addColumn('delivered_at', sql`timestamptz(3)`)
    .addColumn('updated_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // The admin list, newest first with keyset paging; and at most one open order per shopper and cart.
  await sql`create index orders_created_at_id_idx on orders (created_at desc, id desc)`.execute(db);
  await sql`create index orders_status_created_at_id_idx on orders (status, created_at desc, id desc)`.execute(db);
  await sql`create unique index orders_open_cart_key on orders (user_id, cart_key) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('order_events')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (col) => col.notNull())
    .addColumn('at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`clock_timestamp()`))
    .addColumn('actor_type', 'text', (col) => col.notNull().check(sql`actor_type in ('admin', 'shopper', 'provider', 'system')`))
    .addColumn('actor_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('amount_cents', 'bigint')
    .addColumn('note', 'text')
    .execute();
  await sql`create index order_events_order_id_at_idx on order_events (order_id, at, id)`.execute(db);

  await db.schema
    .createTable('order_payments')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('card', 'bank_transfer')`))
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents > 0`))
    .addColumn('provider_reference', 'text', (col) => col.unique())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'succeeded', 'failed', 'canceled')`),
    )
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('confirmed_at', sql`timestamptz(3)`)
    .execute();
  await db.schema.createIndex('order_payments_order_id_idx').on('order_payments').column('order_id').execute();
  // Card payments made before this migration become payment lines.
  await sql`
    insert into order_payments (order_id, method, amount_cents, provider_reference, status, created_at, confirmed_at)
    select id, 'card', total_cents, payment_reference,
           case status when 'paid' then 'succeeded' when 'failed' then 'failed' else 'pending' end,
           created_at, paid_at
    from orders
    where payment_reference is not null and total_cents > 0
  `.execute(db);

  await db.schema
    .createTable('order_refunds')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents > 0`))
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'succeeded', 'failed')`),
    )
    // re_… at the provider; unique so a refund reported by a webhook is recorded once.
    .addColumn('provider_reference', 'text', (col) => col.unique())
    // The admin's key: a double click or a retry finds the refund made the first time.
    .addColumn('idempotency_key', 'text', (col) => col.unique())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_type', 'text', (col) => col.notNull().check(sql`created_by_type in ('admin', 'shopper', 'provider', 'system')`))
    .addColumn('created_by_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('order_refunds_order_id_idx').on('order_refunds').column('order_id').execute();

  await db.schema
    .createTable('unmatched_payments')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('provider_reference', 'text', (col) => col.notNull().unique())
    .addColumn('amount_cents', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('order_id', 'uuid', (col) => col.references('orders.id').onDelete('set null'))
    .addColumn('received_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', sql`timestamptz(3)`)
    .addColumn('resolved_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('resolution_note', 'text')
    .execute();

  // E-mails (and later other messages) to send, written in the same transaction as the change
  // they announce; dedupe_key makes a replayed change write nothing new.
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text', (col) => col.notNull().unique())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    // handed to the job queue (its job id is this row's id)
    .addColumn('enqueued_at', sql`timestamptz(3)`)
    // a delivery attempt owns the row until then; a crashed attempt's claim runs out
    .addColumn('locked_until', sql`timestamptz(3)`)
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', sql`timestamptz(3)`)
    .execute();
  await sql`create index outbox_unsent_idx on outbox (created_at) where sent_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
  await db.schema.dropTable('unmatched_payments').execute();
  await db.schema.dropTable('order_refunds').execute();
  await db.schema.dropTable('order_payments').execute();
  await db.schema.dropTable('order_events').execute();
  await sql`drop index orders_open_cart_key`.execute(db);
  await sql`drop index orders_status_created_at_id_idx`.execute(db);
  await sql`drop index orders_created_at_id_idx`.execute(db);
  await db.schema
    .alterTable('orders')
    .dropColumn('cart_key')
    .dropColumn('carrier')
    .dropColumn('tracking_number')
    .dropColumn('shipped_at')
    .dropColumn('delivered_at')
    .dropColumn('updated_at')
    .execute();
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check check (status in ('pending', 'paid', 'failed'))`.execute(db);
}
