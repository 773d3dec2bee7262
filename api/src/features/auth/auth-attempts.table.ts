import type { ColumnType, Generated } from 'kysely';

export type AuthAction = 'login' | 'register' | 'password-reset';

export interface AuthAttemptsTable {
  id: Generated<string>;
  action: AuthAction;
  /** hex SHA-256 of the lower-cased e-mail the attempt named */
  account: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}
