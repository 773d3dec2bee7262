import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// The buyer a checkout declared (private or business, country, VAT ID) with what VIES answered
// and its consultation number; an order points at the check its VAT was decided on.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vat_buyer_checks')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('buyer_type', 'text', (col) => col.notNull().check(sql`buyer_type in ('consumer', 'business')`))
    .addColumn('country_code', 'char(2)', (col) => col.notNull())
    .addColumn('vat_id', 'text')
    .addColumn('vies_result', 'text', (col) => col.notNull().check(sql`vies_result in ('valid', 'invalid', 'unavailable', 'not_checked')`))
    .addColumn('consultation_number', 'text')
    .addColumn('trader_name', 'text')
    .addColumn('trader_address', 'text')
    .addColumn('checked_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('vat_buyer_checks_business_has_id', sql`buyer_type = 'consumer' or vat_id is not null`)
    .execute();
  await db.schema.createIndex('vat_buyer_checks_user_idx').on('vat_buyer_checks').columns(['user_id', 'checked_at']).execute();

  await db.schema
    .alterTable('orders')
    .addColumn('vat_buyer_check_id', 'uuid', (col) => col.references('vat_buyer_checks.id').onDelete('restrict'))
    .addColumn('vies_consultation_number', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('vat_buyer_check_id').dropColumn('vies_consultation_number').execute();
  await db.schema.dropTable('vat_buyer_checks').execute();
}
