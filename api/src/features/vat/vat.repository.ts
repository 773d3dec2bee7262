import { sql } from 'kysely';
import { VAT_TREATMENT_LABELS, type ProductVat, type ProductVatInput, type VatRate } from '@boatshop/contract';
import type { Db } from '../../db/database.js';

const VAT_COLUMNS = [
  'id',
  'vat_treatment',
  sql<string | null>`to_char(first_used_on, 'YYYY-MM-DD')`.as('first_used_on'),
  'hours_sailed',
  'vat_length_cm',
] as const;

interface VatRow {
  id: string;
  vat_treatment: ProductVat['treatment'];
  first_used_on: string | null;
  hours_sailed: number | null;
  vat_length_cm: number | null;
}

function rowToProductVat(row: VatRow): ProductVat {
  return {
    productId: row.id,
    treatment: row.vat_treatment,
    label: VAT_TREATMENT_LABELS[row.vat_treatment],
    firstUsedOn: row.first_used_on,
    hoursSailed: row.hours_sailed,
    lengthCm: row.vat_length_cm,
  };
}

export async function findProductVat(db: Db, productId: string): Promise<ProductVat | undefined> {
  const row = await db.selectFrom('products').select(VAT_COLUMNS).where('id', '=', productId).executeTakeFirst();
  return row ? rowToProductVat(row as VatRow) : undefined;
}

/** Sets a product's treatment; the new-boat facts are kept only for a new boat. Undefined when there is no such product. */
export async function setProductVat(db: Db, productId: string, input: ProductVatInput): Promise<ProductVat | undefined> {
  const newBoat = input.treatment === 'new_boat';
  const row = await db
    .updateTable('products')
    .set({
      vat_treatment: input.treatment,
      first_used_on: newBoat ? (input.firstUsedOn ?? null) : null,
      hours_sailed: newBoat ? (input.hoursSailed ?? null) : null,
      vat_length_cm: newBoat ? (input.lengthCm ?? null) : null,
    })
    .where('id', '=', productId)
    .returning(VAT_COLUMNS)
    .executeTakeFirst();
  return row ? rowToProductVat(row as VatRow) : undefined;
}

/** Every rate row, by country then start day. */
export async function listVatRates(db: Db): Promise<VatRate[]> {
  const rows = await db
    .selectFrom('vat_rates')
    .select(['country_code', 'rate_basis_points', sql<string>`to_char(valid_from, 'YYYY-MM-DD')`.as('valid_from')])
    .orderBy('country_code')
    .orderBy('valid_from')
    .execute();
  return rows.map((row) => ({ countryCode: row.country_code, rateBasisPoints: row.rate_basis_points, validFrom: row.valid_from }));
}

/** Adds a rate starting on a day; false when that country already has a rate starting that day. */
export async function addVatRate(db: Db, rate: VatRate): Promise<boolean> {
  const inserted = await db
    .insertInto('vat_rates')
    .values({ country_code: rate.countryCode, rate_basis_points: rate.rateBasisPoints, valid_from: rate.validFrom })
    .onConflict((oc) => oc.doNothing())
    .returning('country_code')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The standard rate of a country on a day (the row with the latest start on or before it); undefined outside the table. */
export async function standardRateOn(db: Db, countryCode: string, day: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('vat_rates')
    .select('rate_basis_points')
    .where('country_code', '=', countryCode)
    .where('valid_from', '<=', day)
    .orderBy('valid_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.rate_basis_points;
}

/** A YYYY-MM-DD that names a day of the calendar (not 2026-02-30) from 1900 on (PostgreSQL has no year 0). */
export function isCalendarDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && value >= '1900-01-01' && new Date(time).toISOString().slice(0, 10) === value;
}
