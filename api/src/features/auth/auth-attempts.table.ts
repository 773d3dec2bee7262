import type { ColumnType, Generated } from 'kysely';

export type AuthAction = 'login' | 'register' | 'password-reset' | 'verify-email';

export interface AuthAttemptsTable {
  id: Generated<string>;
  action: AuthAction;
  /** hex SHA-256 of the lower-cased e-mail the attempt named */
  account: string;
  /** the client's address as the API sees it (request.ip, behind TRUST_PROXY only) */
  client_address: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
