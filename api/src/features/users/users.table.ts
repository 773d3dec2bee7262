import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  display_name: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  /** null for accounts that only sign in through an external identity */
  password_hash: string | null;
  email_verified: Generated<boolean>;
  /** set when the shopper's account was erased: nothing personal is left in the row */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
