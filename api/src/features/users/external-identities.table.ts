import type { ColumnType } from 'kysely';

export interface ExternalIdentitiesTable {
  /** the OpenID issuer, e.g. `https://accounts.google.com` */
  provider: string;
  /** the issuer's `sub` claim */
  subject: string;
  user_id: string;
  /** whether the account's e-mail was proven when this link was made; a password reset drops the links where it was not */
  email_verified: ColumnType<boolean, boolean, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
}
