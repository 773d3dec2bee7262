import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  display_name: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  /** null for accounts that only sign in through an external identity */
  password_hash: string | null;
  email_verified: Generated<boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
