import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // Only a SHA-256 of each reset token is kept, so a copy of the database opens no accounts.
  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('used_at', sql`timestamptz(3)`)
    .execute();
  await db.schema.createIndex('password_reset_tokens_user_id_idx').on('password_reset_tokens').column('user_id').execute();

  // A provider's subject is unique per issuer, so (provider, subject) names one person for good,
  // even after they change the e-mail address at the provider.
  await db.schema
    .createTable('external_identities')
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('external_identities_pkey', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('external_identities_user_id_idx').on('external_identities').column('user_id').execute();

  // Per-account throttling lives in the database, not in process memory, so every replica
  // counts the same attempts. The account is a SHA-256 of the lower-cased e-mail: the table
  // holds no addresses of people who never registered.
  await db.schema
    .createTable('auth_attempts')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('action', 'text', (col) => col.notNull().check(sql`action in ('login', 'register', 'password-reset')`))
    .addColumn('account', 'text', (col) => col.notNull())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index auth_attempts_action_account_created_at_idx on auth_attempts (action, account, created_at desc)`.execute(db);
  await db.schema.createIndex('auth_attempts_created_at_idx').on('auth_attempts').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auth_attempts').execute();
  await db.schema.dropTable('external_identities').execute();
  await db.schema.dropTable('password_reset_tokens').execute();
}
