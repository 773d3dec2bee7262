import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // Every API process keeps a read cache of the public catalogue and LISTENs on this channel:
  // whoever writes products (another replica, a script, psql), every replica hears of it once the
  // transaction commits. Per statement, not per row, so a bulk import sends one notification
  // (and PostgreSQL folds identical ones of one transaction into one anyway).
  await sql`
    create function products_changed_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('products_changed', lower(tg_op));
      return null;
    end
    $$
  `.execute(db);
  await sql`
    create trigger products_changed
    after insert or update or delete or truncate on products
    for each statement execute function products_changed_notify()
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger products_changed on products`.execute(db);
  await sql`drop function products_changed_notify()`.execute(db);
}
