import type { ColumnType } from 'kysely';

export interface ExternalIdentitiesTable {
  /** the OpenID issuer, e.g. `https://accounts.google.com` */
  provider: string;
  /** the issuer's `sub` claim */
  subject: string;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}
