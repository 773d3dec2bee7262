import type { Db } from '../../db/database.js';
import type { NewUserRow, UserRow } from './users.table.js';

/** The signed-in user as routes see it. */
export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  roles: string[];
  /** proven by the sign-up e-mail's link, a password reset, or the provider */
  emailVerified: boolean;
  /** false for an account that signs in only through the provider: no current password to give */
  hasPassword: boolean;
}

/** A users row (or the session query's columns, with `has_password` instead of the hash). */
export function rowToAuthUser(
  row: Pick<UserRow, 'id' | 'email' | 'display_name' | 'roles' | 'email_verified'> &
    ({ password_hash: string | null } | { has_password: boolean }),
): AuthUser {
  const hasPassword = 'has_password' in row ? row.has_password : row.password_hash !== null;
  return { id: row.id, email: row.email, displayName: row.display_name, roles: row.roles, emailVerified: row.email_verified, hasPassword };
}

/** E-mail addresses are unique regardless of case (index on lower(email)). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ ...user, email: user.email.trim() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Adds a role once; returns the updated user, or undefined when no user has that e-mail. */
export async function grantRole(db: Db, email: string, role: string): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set((eb) => ({
      roles: eb
        .case()
        .when(eb.val(role), '=', eb.fn.any('roles'))
        .then(eb.ref('roles'))
        .else(eb.fn<string[]>('array_append', ['roles', eb.val(role)]))
        .end(),
    }))
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .returningAll()
    .executeTakeFirst();
}

/** null removes the password: the account then signs in only through a provider (or a reset). */
export async function updatePasswordHash(db: Db, userId: string, passwordHash: string | null): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** The user an external identity (issuer + subject) signed in as before, if any. */
export async function findUserByExternalIdentity(db: Db, provider: string, subject: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('external_identities')
    .innerJoin('users', 'users.id', 'external_identities.user_id')
    .selectAll('users')
    .where('external_identities.provider', '=', provider)
    .where('external_identities.subject', '=', subject)
    .executeTakeFirst();
}

export async function linkExternalIdentity(
  db: Db,
  identity: { provider: string; subject: string; userId: string; emailVerified: boolean },
): Promise<void> {
  await db
    .insertInto('external_identities')
    .values({ provider: identity.provider, subject: identity.subject, user_id: identity.userId, email_verified: identity.emailVerified })
    .execute();
}

/** Drops the provider links made while the account's e-mail was unproven (after a password reset proved it). */
export async function unlinkUnverifiedIdentities(db: Db, userId: string): Promise<number> {
  const result = await db
    .deleteFrom('external_identities')
    .where('user_id', '=', userId)
    .where('email_verified', '=', false)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** PostgreSQL's unique_violation, e.g. two registrations of one e-mail racing each other. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
