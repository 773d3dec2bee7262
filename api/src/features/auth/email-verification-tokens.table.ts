import type { ColumnType, Generated } from 'kysely';

export interface EmailVerificationTokensTable {
  id: Generated<string>;
  user_id: string;
  /** hex SHA-256 of the token sent by e-mail; the token itself is never stored */
  token_hash: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}
