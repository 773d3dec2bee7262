import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Sea trials and guests' viewings: the admin marks the boats that may be sailed on a viewing
// (products.sea_trials); each marina sets how long a sea trial takes; a booking is a viewing or
// a sea trial. A guest's booking holds its time briefly until the e-mailed link confirms it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('sea_trials', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('viewing_locations')
    .addColumn('sea_trial_minutes', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(150)
        .check(sql`sea_trial_minutes between 30 and 480`),
    )
    .execute();

  await db.schema
    .alterTable('viewings')
    .addColumn('kind', 'text', (col) =>
      col
        .notNull()
        .defaultTo('viewing')
        .check(sql`kind in ('viewing', 'sea_trial')`),
    )
    // A guest's booking: who it is for until an account proving that e-mail claims it.
    .addColumn('guest_name', 'text')
    .addColumn('guest_email', 'text')
    // The guest's link (its SHA-256 only) and how long it works; the time is held until hold_until.
    .addColumn('confirm_token_hash', 'text', (col) => col.unique())
    .addColumn('confirm_expires_at', sql`timestamptz(3)`)
    .addColumn('hold_until', sql`timestamptz(3)`)
    .execute();
  await sql`alter table viewings alter column user_id drop not null`.execute(db);
  await sql`alter table viewings add constraint viewings_someone check (user_id is not null or guest_email is not null)`.execute(db);

  // pending: a guest's unconfirmed booking, holding its time; lapsed: one whose hold ran out
  // before the link was opened (the link may still book the time if it is free).
  await sql`alter table viewings drop constraint viewings_status_check`.execute(db);
  await sql`
    alter table viewings add constraint viewings_status_check
    check (status in ('pending', 'booked', 'cancelled', 'lapsed'))
  `.execute(db);
  await sql`alter table viewings add constraint viewings_pending_held check (status <> 'pending' or hold_until is not null)`.execute(db);

  // A held time counts like a booked one: the second of two overlapping bookings is refused
  // (23P01) whether the first is confirmed yet or not. A lapsed hold is marked so before a
  // booking at that marina, in the booking's transaction.
  await sql`alter table viewings drop constraint viewings_no_overlap`.execute(db);
  await sql`
    alter table viewings add constraint viewings_no_overlap
    exclude using gist (location_id with =, blocked with &&) where (status in ('booked', 'pending'))
  `.execute(db);
  await sql`create index viewings_guest_email_idx on viewings (guest_email) where user_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from viewings where user_id is null`.execute(db);
  await sql`alter table viewings drop constraint viewings_no_overlap`.execute(db);
  await sql`
    alter table viewings add constraint viewings_no_overlap
    exclude using gist (location_id with =, blocked with &&) where (status = 'booked')
  `.execute(db);
  await sql`update viewings set status = 'cancelled' where status in ('pending', 'lapsed')`.execute(db);
  await sql`alter table viewings drop constraint viewings_pending_held`.execute(db);
  await sql`alter table viewings drop constraint viewings_status_check`.execute(db);
  await sql`alter table viewings add constraint viewings_status_check check (status in ('booked', 'cancelled'))`.execute(db);
  await sql`alter table viewings drop constraint viewings_someone`.execute(db);
  await sql`alter table viewings alter column user_id set not null`.execute(db);
  await db.schema
    .alterTable('viewings')
    .dropColumn('kind')
    .dropColumn('guest_name')
    .dropColumn('guest_email')
    .dropColumn('confirm_token_hash')
    .dropColumn('confirm_expires_at')
    .dropColumn('hold_until')
    .execute();
  await db.schema.alterTable('viewing_locations').dropColumn('sea_trial_minutes').execute();
  await db.schema.alterTable('products').dropColumn('sea_trials').execute();
}
