import type { ColumnType, Generated } from 'kysely';
import type { OfferState } from '@boatshop/contract';

/** The shop's offer of one boat at one price to the buyer of a lead. */
export interface OffersTable {
  id: Generated<string>;
  lead_id: string;
  product_id: string | null;
  product_name: string;
  price_cents: number;
  counter_price_cents: number | null;
  counter_message: string | null;
  /** set exactly when the offer is accepted: the offer's price or the buyer's counter-offer */
  agreed_price_cents: number | null;
  /** date column: select it as text (`to_char(…, 'YYYY-MM-DD')`), never as a JavaScript Date */
  valid_until: ColumnType<unknown, string, string>;
  conditions: string;
  state: ColumnType<OfferState, OfferState | undefined, OfferState>;
  /** one unit of the boat is counted in products.stock_reserved for this offer */
  stock_held: ColumnType<boolean, boolean | undefined, boolean>;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  responded_at: Date | null;
}

/** The offer an order was opened from (orders.offer_id). */
export interface OrderOfferColumns {
  offer_id: ColumnType<string | null, string | null | undefined, string | null>;
}
