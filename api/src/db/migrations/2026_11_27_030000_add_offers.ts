import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Offers: the shop's price for one boat to the buyer of a lead, the buyer's one counter-offer,
// and the order opened from an accepted offer.

const OFFER_STATES = ['sent', 'countered', 'accepted', 'declined'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('offers')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('lead_id', 'uuid', (col) => col.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('product_id', 'uuid', (col) => col.references('products.id').onDelete('set null'))
    .addColumn('product_name', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents > 0`))
    .addColumn('counter_price_cents', 'bigint', (col) => col.check(sql`counter_price_cents > 0`))
    .addColumn('counter_message', 'text')
    .addColumn('agreed_price_cents', 'bigint', (col) => col.check(sql`agreed_price_cents > 0`))
    // The last day the offer can be accepted and paid; it ends at midnight UTC after that day.
    .addColumn('valid_until', 'date', (col) => col.notNull())
    .addColumn('conditions', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col
        .notNull()
        .defaultTo('sent')
        .check(sql`state in (${sql.join(OFFER_STATES.map((s) => sql.lit(s)))})`),
    )
    // One unit of the boat held in products.stock_reserved for the buyer, from acceptance until
    // the order takes the hold over or the offer's validity ends.
    .addColumn('stock_held', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('responded_at', sql`timestamptz(3)`)
    .addCheckConstraint('offers_agreed_when_accepted', sql`(state = 'accepted') = (agreed_price_cents is not null)`)
    .execute();
  await sql`create index offers_lead_idx on offers (lead_id, created_at)`.execute(db);
  await sql`create index offers_held_idx on offers (valid_until) where stock_held`.execute(db);

  await db.schema
    .alterTable('orders')
    .addColumn('offer_id', 'uuid', (col) => col.references('offers.id').onDelete('set null'))
    .execute();
  // One live order per offer: however often Pay is pressed, with whatever addresses, only one
  // order of an offer can be open or paid at a time (a failed, expired or cancelled one frees it).
  await sql`
    create unique index orders_offer_live_idx on orders (offer_id)
    where offer_id is not null and status not in ('failed', 'expired', 'cancelled')
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_offer_live_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('offer_id').execute();
  await db.schema.dropTable('offers').execute();
}
