import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// A business's VAT ID confirmed by VIES after the sale (it was unavailable at checkout): the order
// is corrected once, and what it had received beyond its new total is owed to the buyer until the
// refunds that pay it back have covered it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vat_corrections')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().unique().references('orders.id').onDelete('restrict'))
    .addColumn('previous_check_id', 'uuid', (col) => col.references('vat_buyer_checks.id').onDelete('restrict'))
    .addColumn('check_id', 'uuid', (col) => col.notNull().references('vat_buyer_checks.id').onDelete('restrict'))
    .addColumn('owed_cents', 'bigint', (col) => col.notNull().check(sql`owed_cents >= 0`))
    .addColumn('settled_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('vat_corrections_settled_within_owed', sql`settled_cents between 0 and owed_cents`)
    .execute();
  // Each refund after a correction, once: how much of it paid back what the correction owed.
  await db.schema
    .createTable('vat_correction_refunds')
    .addColumn('refund_key', 'text', (col) => col.primaryKey())
    .addColumn('correction_id', 'uuid', (col) => col.notNull().references('vat_corrections.id').onDelete('restrict'))
    .addColumn('covered_cents', 'bigint', (col) => col.notNull().check(sql`covered_cents >= 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vat_correction_refunds').execute();
  await db.schema.dropTable('vat_corrections').execute();
}
