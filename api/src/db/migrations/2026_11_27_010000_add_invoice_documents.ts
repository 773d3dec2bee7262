import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.
// What each invoice and credit note says, frozen when it is issued (both parties, the lines, the
// advances a final invoice deducts, the invoice a credit note corrects), and its rendered file:
// rendered once, stored with its SHA-256, served byte for byte ever after.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('snapshot', 'jsonb').execute();

  await db.schema
    .createTable('invoice_documents')
    .addColumn('invoice_id', 'uuid', (col) => col.primaryKey().references('invoices.id').onDelete('restrict'))
    .addColumn('media_type', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('content', 'bytea', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoice_documents').execute();
  await db.schema.alterTable('invoices').dropColumn('snapshot').execute();
}
