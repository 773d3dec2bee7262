import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  revoked_at: Date | null;
  /** the last step-up (password typed again) in this session: features/staff/step-up.ts */
  stepped_up_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
