import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// One append-only ledger of money per order. Every movement is a row with a signed amount in
// cents (what it does to the money the shop holds for the order), its kind, its source and its
// provider or bank reference (unique: a replayed webhook or statement line is booked once).
// Received, refunded, at risk and owed are derived from these rows, never kept in counters.
// Existing succeeded payment lines, succeeded refunds and open disputes are copied in.

const KINDS = [
  'card_capture',
  'bank_transfer_in',
  'card_refund',
  'bank_refund_out',
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
  'write_off',
];

const list = (values: string[]) => sql.join(values.map((value) => sql.lit(value)));

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_ledger_entries')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('restrict'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in (${list(KINDS)})`))
    .addColumn('amount_cents', 'bigint', (col) => col.notNull())
    // card (the provider), bank (a statement line), admin (recorded by hand), migration
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('reference', 'text', (col) => col.notNull().unique())
    // the provider's dispute id: pairs a dispute's opening with its closing
    .addColumn('dispute_id', 'text')
    .addColumn('booked_on', 'date', (col) => col.notNull().defaultTo(sql`(now() at time zone 'UTC')::date`))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('actor_type', 'text', (col) => col.notNull())
    // no foreign key: erasing a user must not rewrite the ledger
    .addColumn('actor_id', 'uuid')
    .addColumn('note', 'text')
    .execute();
  // Signs by kind: money in is positive, money out negative; a dispute opening takes the disputed
  // amount away (at risk), winning gives it back, losing moves nothing more (it stays gone).
  await sql`
    alter table order_ledger_entries add constraint order_ledger_entries_sign_check check (
      (kind in ('card_capture', 'bank_transfer_in', 'dispute_won', 'write_off') and amount_cents > 0)
      or (kind in ('card_refund', 'bank_refund_out', 'dispute_opened') and amount_cents < 0)
      or (kind = 'dispute_lost' and amount_cents = 0)
    )
  `.execute(db);
  await sql`
    alter table order_ledger_entries add constraint order_ledger_entries_dispute_check check (
      (kind like 'dispute_%') = (dispute_id is not null)
    )
  `.execute(db);
  await db.schema.createIndex('order_ledger_entries_order_idx').on('order_ledger_entries').columns(['order_id', 'created_at']).execute();
  // A dispute opens once and closes once.
  await sql`
    create unique index order_ledger_entries_dispute_idx on order_ledger_entries (dispute_id, (kind = 'dispute_opened'))
    where dispute_id is not null
  `.execute(db);

  // Append-only: rows are never changed or deleted (a correction is a new row).
  await sql`
    create function order_ledger_entries_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'order_ledger_entries is append-only';
    end
    $$
  `.execute(db);
  await sql`
    create trigger order_ledger_entries_append_only before update or delete on order_ledger_entries
    for each row execute function order_ledger_entries_append_only()
  `.execute(db);

  // A refund the provider has not settled yet stays pending; requires_action and canceled are
  // the provider's other answers.
  await sql`alter table order_refunds drop constraint if exists order_refunds_status_check`.execute(db);
  await sql`
    alter table order_refunds add constraint order_refunds_status_check
    check (status in ('pending', 'requires_action', 'succeeded', 'failed', 'canceled'))
  `.execute(db);
  // Bank refunds recorded by hand carry no provider call.
  await db.schema
    .alterTable('order_refunds')
    .addColumn('method', 'text', (col) =>
      col
        .notNull()
        .defaultTo('card')
        .check(sql`method in ('card', 'bank_transfer')`),
    )
    .addColumn('sent_at', sql`timestamptz(3)`)
    .execute();

  // Existing money, copied in.
  await sql`
    insert into order_ledger_entries (order_id, kind, amount_cents, source, reference, booked_on, created_at, actor_type)
    select order_id,
           case method when 'card' then 'card_capture' else 'bank_transfer_in' end,
           amount_cents,
           case method when 'card' then 'card' else 'bank' end,
           coalesce(provider_reference, 'payment:' || id::text),
           coalesce(received_on, (coalesce(confirmed_at, created_at) at time zone 'UTC')::date),
           coalesce(confirmed_at, created_at),
           case method when 'card' then 'provider' else 'admin' end
    from order_payments
    where status = 'succeeded'
  `.execute(db);
  await sql`
    insert into order_ledger_entries (order_id, kind, amount_cents, source, reference, booked_on, created_at, actor_type, actor_id, note)
    select order_id, 'card_refund', -amount_cents, 'card',
           coalesce(provider_reference, 'refund:' || id::text),
           (created_at at time zone 'UTC')::date, created_at, created_by_type, created_by_id, reason
    from order_refunds
    where status = 'succeeded'
  `.execute(db);
  // An order in dispute now: its latest opening event, with the amount it named.
  await sql`
    insert into order_ledger_entries (order_id, kind, amount_cents, source, reference, dispute_id, created_at, actor_type, note)
    select distinct on (e.order_id) e.order_id, 'dispute_opened', -e.amount_cents, 'card',
           'migrated-dispute:' || e.id::text, 'migrated-dispute:' || e.id::text, e.at, 'provider', e.note
    from order_events e
    join orders o on o.id = e.order_id
    where o.status = 'disputed' and e.to_status = 'disputed' and e.amount_cents > 0
    order by e.order_id, e.at desc, e.id desc
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_ledger_entries').execute();
  await sql`drop function order_ledger_entries_append_only()`.execute(db);
  await db.schema.alterTable('order_refunds').dropColumn('method').dropColumn('sent_at').execute();
  await sql`alter table order_refunds drop constraint order_refunds_status_check`.execute(db);
  await sql`
    alter table order_refunds add constraint order_refunds_status_check check (status in ('pending', 'succeeded', 'failed'))
  `.execute(db);
}
