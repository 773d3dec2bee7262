import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // Every admin action, one row each, chained: a row's hash covers its content and the previous
  // row's hash, so an edited or deleted row breaks the chain at that point. No foreign keys: a
  // deleted user must not rewrite (set null) rows that may never change.
  await db.schema
    .createTable('audit_log')
    .addColumn('seq', 'bigint', (col) => col.primaryKey())
    .addColumn('at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('actor_id', 'uuid')
    .addColumn('actor_email', 'text')
    .addColumn('actor_role', 'text')
    .addColumn('ip', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('status', 'integer')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('details', 'jsonb')
    .addColumn('prev_hash', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull().unique())
    .execute();
  await sql`create index audit_log_at_idx on audit_log (at desc, seq desc)`.execute(db);
  await sql`create index audit_log_actor_idx on audit_log (actor_id, seq desc)`.execute(db);

  // Append-only where the database can say so: UPDATE and DELETE are refused for every role the
  // application uses. (TRUNCATE stays possible for the table's owner; the verify command and the
  // daily job then find the chain's first row missing or the log emptied below its last checked head.)
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only: % refused', tg_op using errcode = '42501';
    end
    $$
  `.execute(db);
  await sql`
    create trigger audit_log_append_only
    before update or delete on audit_log
    for each row execute function audit_log_append_only()
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger audit_log_append_only on audit_log`.execute(db);
  await sql`drop function audit_log_append_only()`.execute(db);
  await db.schema.dropTable('audit_log').execute();
}
