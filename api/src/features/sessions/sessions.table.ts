import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  revoked_at: Date | null;
}

export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
