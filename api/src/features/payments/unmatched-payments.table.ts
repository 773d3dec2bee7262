import type { Generated } from 'kysely';

/** Money the provider reports as received that matches no open order (or not its amount). */
export interface UnmatchedPaymentsTable {
  id: Generated<string>;
  provider_reference: string;
  amount_cents: number;
  currency: string;
  reason: string;
  order_id: string | null;
  received_at: Generated<Date>;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolution_note: string | null;
}
