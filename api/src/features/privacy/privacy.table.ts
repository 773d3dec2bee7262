import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type PrivacyRequestKind = 'export' | 'erasure';
export type PrivacyRequestState = 'awaiting_confirmation' | 'preparing' | 'ready' | 'done' | 'withdrawn';

/** A shopper's export or erasure request; the e-mailed link's token is stored hashed. */
export interface PrivacyRequestsTable {
  id: Generated<string>;
  user_id: string;
  kind: PrivacyRequestKind;
  state: PrivacyRequestState;
  token_hash: string;
  /** the export's archive, once the job built it */
  archive: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  completed_at: Date | null;
}

/** What a shopper agreed to or withdrew: rows are only added, the latest per topic counts. */
export interface ConsentsTable {
  id: Generated<string>;
  user_id: string;
  topic: string;
  granted: boolean;
  wording: string;
  recorded_at: ColumnType<Date, Date | undefined, never>;
}
