import type { ColumnType, Selectable } from 'kysely';

/** Provider webhook events already handled, by event id, so each is applied once. */
export interface PaymentEventsTable {
  event_id: string;
  type: string;
  /** the payment intent id the event is about */
  payment_reference: string | null;
  received_at: ColumnType<Date, Date | undefined, never>;
}

export type PaymentEventRow = Selectable<PaymentEventsTable>;
