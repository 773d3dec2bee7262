import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // When the session's person last typed their password again for a sensitive action (step-up).
  await db.schema
    .alterTable('sessions')
    .addColumn('stepped_up_at', sql`timestamptz(3)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('stepped_up_at').execute();
}
