import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // Stock lives on the product row itself: units on hand (null = built to order, unlimited) and
  // units held by open orders. So a reservation is a write to `products`, whose statement trigger
  // (2024_11_22_000000) empties every replica's catalogue cache: availability is never served stale.
  await db.schema
    .alterTable('products')
    .addColumn('stock_on_hand', 'integer')
    .addColumn('stock_reserved', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`
    alter table products
      add constraint products_stock_on_hand_check check (stock_on_hand >= 0),
      add constraint products_stock_reserved_check check (stock_reserved >= 0),
      add constraint products_stock_reserved_within_check check (stock_on_hand is null or stock_reserved <= stock_on_hand)
  `.execute(db);

  // What each order line took from stock when the order was opened (0 for built-to-order boats),
  // so a release or a sale gives back or removes exactly that, whatever the product says by then.
  await db.schema
    .alterTable('order_items')
    .addColumn('reserved_units', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`reserved_units >= 0`),
    )
    .execute();

  // Where the order's units are: null (nothing reserved), reserved, released (failed, expired,
  // cancelled), sold (paid), short (paid after a release while the units had gone to someone else).
  // Release and sale are conditional updates of this column, so each happens once.
  await db.schema
    .alterTable('orders')
    .addColumn('stock_status', 'text', (col) => col.check(sql`stock_status in ('reserved', 'released', 'sold', 'short')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('stock_status').execute();
  await db.schema.alterTable('order_items').dropColumn('reserved_units').execute();
  await db.schema.alterTable('products').dropColumn('stock_reserved').dropColumn('stock_on_hand').execute();
}
