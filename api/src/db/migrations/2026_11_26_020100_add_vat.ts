import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// VAT as data: the member states' standard rates with the day each starts to apply (a change is a
// new row, not a release), and each product's VAT treatment with the facts that make a boat "new"
// under the EU rule for new means of transport (first use, hours sailed, hull length).

const TREATMENTS = ['vat_paid_own_stock', 'margin_scheme', 'new_boat', 'not_vat_paid'];

/** The 27 standard rates in basis points (1900 = 19,00 %), valid from 1 January 2026. */
const STANDARD_RATES: [string, number][] = [
  ['AT', 2000],
  ['BE', 2100],
  ['BG', 2000],
  ['CY', 1900],
  ['CZ', 2100],
  ['DE', 1900],
  ['DK', 2500],
  ['EE', 2400],
  ['ES', 2100],
  ['FI', 2550],
  ['FR', 2000],
  ['GR', 2400],
  ['HR', 2500],
  ['HU', 2700],
  ['IE', 2300],
  ['IT', 2200],
  ['LT', 2100],
  ['LU', 1700],
  ['LV', 2100],
  ['MT', 1800],
  ['NL', 2100],
  ['PL', 2300],
  ['PT', 2300],
  ['RO', 2100],
  ['SE', 2500],
  ['SI', 2200],
  ['SK', 2300],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vat_rates')
    .addColumn('country_code', 'char(2)', (col) => col.notNull().check(sql`country_code ~ '^[A-Z]{2}$'`))
    .addColumn('rate_basis_points', 'integer', (col) => col.notNull().check(sql`rate_basis_points between 0 and 10000`))
    .addColumn('valid_from', 'date', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('vat_rates_pkey', ['country_code', 'valid_from'])
    .execute();
  await db
    .insertInto('vat_rates')
    .values(STANDARD_RATES.map(([country_code, rate_basis_points]) => ({ country_code, rate_basis_points, valid_from: '2026-01-01' })))
    .execute();

  await db.schema
    .alterTable('products')
    .addColumn('vat_treatment', 'text', (col) =>
      col
        .notNull()
        .defaultTo('vat_paid_own_stock')
        .check(sql`vat_treatment in (${sql.join(TREATMENTS.map((t) => sql.lit(t)))})`),
    )
    .addColumn('first_used_on', 'date')
    .addColumn('hours_sailed', 'integer', (col) => col.check(sql`hours_sailed >= 0`))
    // The hull length the VAT rule reads, in centimetres; null until the admin gives it.
    .addColumn('vat_length_cm', 'integer', (col) => col.check(sql`vat_length_cm > 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .dropColumn('vat_treatment')
    .dropColumn('first_used_on')
    .dropColumn('hours_sailed')
    .dropColumn('vat_length_cm')
    .execute();
  await db.schema.dropTable('vat_rates').execute();
}
