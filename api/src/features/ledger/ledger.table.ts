import type { ActorType } from '@boatshop/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';

export type LedgerKind =
  'card_capture' | 'bank_transfer_in' | 'card_refund' | 'bank_refund_out' | 'dispute_opened' | 'dispute_won' | 'dispute_lost' | 'write_off';

/** card: the payment provider; bank: a bank statement line; admin: recorded by hand */
export type LedgerSource = 'card' | 'bank' | 'admin';

/** One movement of an order's money; append-only (a trigger refuses updates and deletes). */
export interface OrderLedgerEntriesTable {
  id: Generated<string>;
  order_id: string;
  kind: LedgerKind;
  /** signed euro cents: what the movement does to the money the shop holds for the order */
  amount_cents: number;
  source: LedgerSource;
  /** provider or bank reference; unique, so a replayed event is booked once */
  reference: string;
  dispute_id: string | null;
  /** date column: select it as text */
  booked_on: ColumnType<unknown, string | undefined, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
  actor_type: ActorType;
  actor_id: string | null;
  note: string | null;
}

export type LedgerEntryRow = Selectable<OrderLedgerEntriesTable>;

/** A difference between an order's ledger and the provider's or the bank's records. */
export interface ReconciliationAlertsTable {
  id: Generated<string>;
  order_id: string;
  kind: string;
  ledger_cents: ColumnType<string, number, never>;
  source_cents: ColumnType<string, number, never>;
  detail: string;
  fingerprint: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolution: string | null;
}
