import type { Generated, JSONColumnType } from 'kysely';

/** Messages to send, written in the same transaction as the change they announce. */
export interface OutboxTable {
  id: Generated<string>;
  kind: string;
  /** e.g. the order event id: a replayed change finds its message written already */
  dedupe_key: string;
  payload: JSONColumnType<Record<string, unknown>>;
  created_at: Generated<Date>;
  enqueued_at: Date | null;
  locked_until: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Date | null;
}
