import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // The all-powerful `admin` becomes the `owner` of the staff roles (owner, sales, accountant, editor).
  await sql`update users set roles = array_replace(roles, 'admin', 'owner') where 'admin' = any(roles)`.execute(db);

  // An owner invites someone by e-mail to a role; the link's token is kept only as a SHA-256, and
  // accepting needs a session whose verified e-mail is the invited one.
  await db.schema
    .createTable('staff_invitations')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'sales', 'accountant', 'editor')`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('accepted_at', sql`timestamptz(3)`)
    .addColumn('revoked_at', sql`timestamptz(3)`)
    .execute();
  await sql`create index staff_invitations_email_idx on staff_invitations (lower(email))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_invitations').execute();
  await sql`update users set roles = array_replace(roles, 'owner', 'admin') where 'owner' = any(roles)`.execute(db);
  await sql`update users set roles = array_remove(array_remove(array_remove(roles, 'sales'), 'accountant'), 'editor')`.execute(db);
}
