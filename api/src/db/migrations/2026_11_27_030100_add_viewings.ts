import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Viewings: each marina's availability (weekly hours, exceptions, slot length, buffer, time
// zone, address) and the shoppers' booked viewings of a boat there.

export async function up(db: Kysely<any>): Promise<void> {
  // A GiST index that compares a uuid with `=` next to a range with `&&` needs btree_gist.
  await sql`create extension if not exists btree_gist`.execute(db);

  await db.schema
    .createTable('viewing_locations')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // The marina's name, as products.location_marina names where a boat lies.
    .addColumn('marina', 'text', (col) => col.notNull().unique())
    .addColumn('address', 'text', (col) => col.notNull())
    // An IANA zone (Europe/Paris): the weekly hours and exceptions are the marina's wall clock.
    .addColumn('time_zone', 'text', (col) => col.notNull())
    .addColumn('slot_minutes', 'integer', (col) => col.notNull().check(sql`slot_minutes between 15 and 480`))
    .addColumn('buffer_minutes', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`buffer_minutes between 0 and 240`),
    )
    // {"1": [["09:00", "12:00"], ["14:00", "18:00"]], …}: ISO weekday (1 Monday … 7 Sunday) to opening hours.
    .addColumn('weekly_hours', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('updated_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('viewing_exceptions')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('location_id', 'uuid', (col) => col.notNull().references('viewing_locations.id').onDelete('cascade'))
    .addColumn('day', 'date', (col) => col.notNull())
    // null: closed all day (a holiday); otherwise that day's hours instead of the weekday's.
    .addColumn('hours', 'jsonb')
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addUniqueConstraint('viewing_exceptions_day_key', ['location_id', 'day'])
    .execute();

  await db.schema
    .createTable('viewings')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('location_id', 'uuid', (col) => col.notNull().references('viewing_locations.id').onDelete('cascade'))
    .addColumn('product_id', 'uuid', (col) => col.references('products.id').onDelete('set null'))
    .addColumn('product_name', 'text', (col) => col.notNull())
    .addColumn('lead_id', 'uuid', (col) => col.references('leads.id').onDelete('set null'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('starts_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('ends_at', sql`timestamptz(3)`, (col) => col.notNull())
    // The time the marina's staff are taken: the viewing and the buffer after it.
    .addColumn('blocked', 'tstzrange', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('booked')
        .check(sql`status in ('booked', 'cancelled')`),
    )
    .addColumn('reminder_sent_at', sql`timestamptz(3)`)
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('viewings_ends_after_start', sql`ends_at > starts_at`)
    .execute();
  // Two booked viewings at one marina never overlap: the database refuses the second (23P01),
  // however many shoppers race for the slot.
  await sql`
    alter table viewings add constraint viewings_no_overlap
    exclude using gist (location_id with =, blocked with &&) where (status = 'booked')
  `.execute(db);
  await sql`create index viewings_user_idx on viewings (user_id, starts_at)`.execute(db);
  await sql`create index viewings_reminder_idx on viewings (starts_at) where status = 'booked' and reminder_sent_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('viewings').execute();
  await db.schema.dropTable('viewing_exceptions').execute();
  await db.schema.dropTable('viewing_locations').execute();
}
