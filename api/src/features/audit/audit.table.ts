import type { ColumnType, Selectable } from 'kysely';

/** One admin action; append-only (a trigger refuses UPDATE and DELETE), chained by `prev_hash`. */
export interface AuditLogTable {
  /** 1, 2, 3…: the chain's order, without gaps */
  seq: ColumnType<number, number, never>;
  at: Date;
  actor_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  ip: string | null;
  /** `order.refund`, or `POST /api/admin/orders/:id/refund` when written by the automatic hook */
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** the HTTP status the action answered */
  status: number | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  details: ColumnType<unknown, string | null, never>;
  prev_hash: string;
  hash: string;
}

export type AuditRow = Selectable<AuditLogTable>;
