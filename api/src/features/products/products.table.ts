import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Category } from '@boatshop/contract';

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
}

export type ProductRow = Selectable<ProductsTable>;
export type NewProductRow = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;
