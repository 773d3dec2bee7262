import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { BoatCondition, Category, CeCategory, FuelType, HullMaterial } from '@boatshop/contract';

export interface ProductsTable {
  id: Generated<string>;
  name: string;
  thumbnail_url: string;
  /** euro cents; int8 parsed to a safe integer number on both databases */
  price_cents: number;
  description_html: Generated<string>;
  category: Category;
  created_at: ColumnType<Date, Date | undefined, Date>;
  created_by: string | null;
  /** units on hand, sold ones gone; null = built to order (unlimited) */
  stock_on_hand: ColumnType<number | null, number | null | undefined, number | null>;
  /** units of stock_on_hand held by open (pending) orders */
  stock_reserved: Generated<number>;
  /** generated tsvector over name (weight A) and description text (weight B) */
  search: ColumnType<string, never, never>;

  // Boat specifications (find): every one may be unknown. Lengths in whole centimetres.
  builder: ColumnType<string | null, string | null | undefined, string | null>;
  model: ColumnType<string | null, string | null | undefined, string | null>;
  year_built: ColumnType<number | null, number | null | undefined, number | null>;
  condition: ColumnType<BoatCondition | null, BoatCondition | null | undefined, BoatCondition | null>;
  length_overall_cm: ColumnType<number | null, number | null | undefined, number | null>;
  beam_cm: ColumnType<number | null, number | null | undefined, number | null>;
  draft_cm: ColumnType<number | null, number | null | undefined, number | null>;
  displacement_kg: ColumnType<number | null, number | null | undefined, number | null>;
  hull_material: ColumnType<HullMaterial | null, HullMaterial | null | undefined, HullMaterial | null>;
  engine_count: ColumnType<number | null, number | null | undefined, number | null>;
  engine_make: ColumnType<string | null, string | null | undefined, string | null>;
  engine_power_hp: ColumnType<number | null, number | null | undefined, number | null>;
  engine_hours: ColumnType<number | null, number | null | undefined, number | null>;
  fuel: ColumnType<FuelType | null, FuelType | null | undefined, FuelType | null>;
  cabins: ColumnType<number | null, number | null | undefined, number | null>;
  berths: ColumnType<number | null, number | null | undefined, number | null>;
  heads: ColumnType<number | null, number | null | undefined, number | null>;
  ce_category: ColumnType<CeCategory | null, CeCategory | null | undefined, CeCategory | null>;
  location_marina: ColumnType<string | null, string | null | undefined, string | null>;
  location_country: ColumnType<string | null, string | null | undefined, string | null>;
  /** sales: whether a booking may be a sea trial (the boat sailed), not only a viewing at the berth */
  sea_trials: ColumnType<boolean, boolean | undefined, boolean>;
}

export type ProductRow = Selectable<ProductsTable>;
export type NewProductRow = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;
