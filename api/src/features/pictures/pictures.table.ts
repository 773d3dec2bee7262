import type { ColumnType, Generated, Selectable } from 'kysely';

/** One picture of a boat: linked (`url`) or uploaded (`storage_key` and what the upload measured). */
export interface ProductPicturesTable {
  id: Generated<string>;
  product_id: string;
  /** 0 is the card picture */
  position: number;
  alt: Generated<string>;
  url: string | null;
  /** 32 hex characters of the upload's SHA-256: names every stored variant */
  storage_key: string | null;
  width: number | null;
  height: number | null;
  /** the widths stored, each as AVIF, WebP and JPEG */
  variant_widths: number[] | null;
  /** a tiny blurred picture as a data: URI */
  placeholder: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type PictureRow = Selectable<ProductPicturesTable>;
