import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Leads: a shopper's enquiry about one boat and the conversation that follows it, the shop's
// internal notes on it (never shown to the shopper) and its timeline of events.

const LEAD_STATES = ['new', 'answered', 'viewing_booked', 'offer_sent', 'won', 'lost'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // The boat may be deleted later; its name stays with the lead.
    .addColumn('product_id', 'uuid', (col) => col.references('products.id').onDelete('set null'))
    .addColumn('product_name', 'text', (col) => col.notNull())
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('buyer_name', 'text', (col) => col.notNull())
    // Stored lower-case: a guest's enquiry is found again by the account that proves this address.
    .addColumn('email', 'text', (col) => col.notNull().check(sql`email = lower(email)`))
    .addColumn('state', 'text', (col) =>
      col
        .notNull()
        .defaultTo('new')
        .check(sql`state in (${sql.join(LEAD_STATES.map((s) => sql.lit(s)))})`),
    )
    .addColumn('lost_reason', 'text')
    // Null while a guest has not opened the confirmation link: such a lead reaches nobody.
    .addColumn('confirmed_at', sql`timestamptz(3)`)
    .addColumn('confirm_token_hash', 'text', (col) => col.unique())
    .addColumn('confirm_expires_at', sql`timestamptz(3)`)
    // When the shopper's latest message still waits for the shop's answer; null once answered.
    .addColumn('awaiting_reply_since', sql`timestamptz(3)`)
    .addColumn('client_address', 'text')
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_activity_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index leads_inbox_idx on leads (last_activity_at desc, id desc) where confirmed_at is not null`.execute(db);
  await sql`create index leads_email_idx on leads (email, created_at)`.execute(db);
  await sql`create index leads_user_idx on leads (user_id, created_at)`.execute(db);

  await db.schema
    .createTable('lead_messages')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('lead_id', 'uuid', (col) => col.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('author', 'text', (col) => col.notNull().check(sql`author in ('shopper', 'shop')`))
    .addColumn('author_user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index lead_messages_lead_idx on lead_messages (lead_id, created_at)`.execute(db);

  await db.schema
    .createTable('lead_notes')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('lead_id', 'uuid', (col) => col.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('author_user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index lead_notes_lead_idx on lead_notes (lead_id, created_at)`.execute(db);

  await db.schema
    .createTable('lead_events')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('lead_id', 'uuid', (col) => col.notNull().references('leads.id').onDelete('cascade'))
    // enquiry, replied, viewing_booked, offer_sent, won, lost: the funnel counts these per month
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('detail', 'text')
    .addColumn('actor_user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index lead_events_lead_idx on lead_events (lead_id, created_at)`.execute(db);
  await sql`create index lead_events_kind_idx on lead_events (kind, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lead_events').execute();
  await db.schema.dropTable('lead_notes').execute();
  await db.schema.dropTable('lead_messages').execute();
  await db.schema.dropTable('leads').execute();
}
