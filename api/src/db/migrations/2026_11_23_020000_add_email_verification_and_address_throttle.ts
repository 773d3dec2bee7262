import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  // The sign-up e-mail's link proves the address. As with reset tokens, only a SHA-256 is kept.
  await db.schema
    .createTable('email_verification_tokens')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('used_at', sql`timestamptz(3)`)
    .execute();
  await db.schema.createIndex('email_verification_tokens_user_id_idx').on('email_verification_tokens').column('user_id').execute();

  // Whether the account's e-mail was proven (by the provider or by the shop) when the provider
  // identity was linked; a password reset drops the links that were not. Links made before this
  // column existed inherit the account's state.
  await db.schema
    .alterTable('external_identities')
    .addColumn('email_verified', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  await sql`update external_identities set email_verified = users.email_verified from users where users.id = external_identities.user_id`.execute(
    db,
  );

  // Sign-in attempts are counted per (account, client address) and per client address, so a
  // stranger's guesses from one address cannot lock the owner out everywhere.
  await db.schema.alterTable('auth_attempts').addColumn('client_address', 'text').execute();
  await sql`create index auth_attempts_action_client_address_created_at_idx on auth_attempts (action, client_address, created_at desc)`.execute(
    db,
  );
  await sql`alter table auth_attempts drop constraint auth_attempts_action_check`.execute(db);
  await sql`alter table auth_attempts add constraint auth_attempts_action_check check (action in ('login', 'register', 'password-reset', 'verify-email'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from auth_attempts where action = 'verify-email'`.execute(db);
  await sql`alter table auth_attempts drop constraint auth_attempts_action_check`.execute(db);
  await sql`alter table auth_attempts add constraint auth_attempts_action_check check (action in ('login', 'register', 'password-reset'))`.execute(
    db,
  );
  await sql`drop index auth_attempts_action_client_address_created_at_idx`.execute(db);
  await db.schema.alterTable('auth_attempts').dropColumn('client_address').execute();
  await db.schema.alterTable('external_identities').dropColumn('email_verified').execute();
  await db.schema.dropTable('email_verification_tokens').execute();
}
