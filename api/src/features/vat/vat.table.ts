import type { ColumnType, Generated } from 'kysely';

export interface VatRatesTable {
  /** ISO 3166 alpha-2, as VAT IDs spell it except Greece (EL in VAT IDs, GR here) */
  country_code: string;
  /** 1900 = 19,00 % */
  rate_basis_points: number;
  /** the first day the rate applies; it applies until the next row's valid_from */
  valid_from: ColumnType<string, string, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** The products table's VAT columns (the products feature owns the rest of the row). */
export interface ProductVatColumns {
  vat_treatment: ColumnType<VatTreatmentColumn, VatTreatmentColumn | undefined, VatTreatmentColumn>;
  /** date; read it through to_char, since pg and PGlite parse dates differently */
  first_used_on: ColumnType<unknown, string | null | undefined, string | null>;
  hours_sailed: ColumnType<number | null, number | null | undefined, number | null>;
  /** the hull length the new-boat rule reads, in centimetres */
  vat_length_cm: ColumnType<number | null, number | null | undefined, number | null>;
}

type VatTreatmentColumn = 'vat_paid_own_stock' | 'margin_scheme' | 'new_boat' | 'not_vat_paid';

export interface VatBuyerChecksTable {
  id: Generated<string>;
  user_id: string;
  buyer_type: 'consumer' | 'business';
  country_code: string;
  vat_id: string | null;
  vies_result: 'valid' | 'invalid' | 'unavailable' | 'not_checked';
  consultation_number: string | null;
  trader_name: string | null;
  trader_address: string | null;
  checked_at: ColumnType<Date, Date | undefined, never>;
}

/** An order corrected after VIES confirmed the buyer's VAT ID: what it owes back, and how much of that was refunded. */
export interface VatCorrectionsTable {
  id: Generated<string>;
  order_id: string;
  previous_check_id: string | null;
  check_id: string;
  owed_cents: ColumnType<number, number, never>;
  settled_cents: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface VatCorrectionRefundsTable {
  refund_key: string;
  correction_id: string;
  covered_cents: number;
}

/** The orders table's VAT columns (the orders feature owns the rest of the row). */
export interface OrderVatColumns {
  vat_buyer_check_id: ColumnType<string | null, string | null | undefined, string | null>;
  vies_consultation_number: ColumnType<string | null, string | null | undefined, string | null>;
}
