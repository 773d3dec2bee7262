import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// Invoices and credit notes: numbered without gaps per series and year from a counter row that
// the money event's own transaction increments (a rolled-back event gives its number back), each
// document once per money event (event_key), never edited.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_counters')
    .addColumn('series', 'text', (col) => col.notNull())
    .addColumn('year', 'integer', (col) => col.notNull())
    .addColumn('last_number', 'integer', (col) => col.notNull().check(sql`last_number > 0`))
    .addPrimaryKeyConstraint('invoice_counters_pkey', ['series', 'year'])
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('number', 'text', (col) => col.notNull().unique())
    .addColumn('series', 'text', (col) => col.notNull())
    .addColumn('year', 'integer', (col) => col.notNull())
    .addColumn('sequence', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('advance', 'final', 'invoice', 'credit_note')`))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('restrict'))
    // The money event the document belongs to, e.g. deposit:<payment id>: one document per event.
    .addColumn('event_key', 'text', (col) => col.notNull().unique())
    // A credit note's invoice.
    .addColumn('corrects_invoice_id', 'uuid', (col) => col.references('invoices.id').onDelete('restrict'))
    .addColumn('issued_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('vat_case', 'text', (col) => col.notNull())
    .addColumn('vat_country', 'char(2)')
    .addColumn('rate_basis_points', 'integer', (col) => col.notNull())
    .addColumn('net_cents', 'bigint', (col) => col.notNull())
    .addColumn('vat_cents', 'bigint', (col) => col.notNull())
    .addColumn('total_cents', 'bigint', (col) => col.notNull())
    .addColumn('wording', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('buyer_country', 'char(2)', (col) => col.notNull())
    .addColumn('buyer_vat_id', 'text')
    .addUniqueConstraint('invoices_series_year_sequence_key', ['series', 'year', 'sequence'])
    .execute();
  await db.schema.createIndex('invoices_order_idx').on('invoices').column('order_id').execute();
  await db.schema.createIndex('invoices_issued_idx').on('invoices').columns(['issued_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoices').execute();
  await db.schema.dropTable('invoice_counters').execute();
}
