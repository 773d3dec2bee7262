import { sql, type Kysely } from 'kysely';

// 'restocked': a paid order cancelled before shipping put its sold units back on hand.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint if exists orders_stock_status_check`.execute(db);
  await sql`alter table orders add constraint orders_stock_status_check
    check (stock_status in ('reserved', 'released', 'sold', 'short', 'restocked'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update orders set stock_status = 'released' where stock_status = 'restocked'`.execute(db);
  await sql`alter table orders drop constraint if exists orders_stock_status_check`.execute(db);
  await sql`alter table orders add constraint orders_stock_status_check
    check (stock_status in ('reserved', 'released', 'sold', 'short'))`.execute(db);
}
