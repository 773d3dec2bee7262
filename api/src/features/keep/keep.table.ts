import type { ColumnType, JSONColumnType } from 'kysely';
import type { SavedSearchQuery } from '@boatshop/contract';

/** A boat a shopper keeps: one row per account and boat. */
export interface FavouritesTable {
  user_id: string;
  product_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A shopper's saved search and where its daily alert stands. */
export interface SavedSearchesTable {
  id: ColumnType<string, string | undefined, never>;
  user_id: string;
  name: string;
  /** the search page's address (`/search…`) */
  path: string;
  query: JSONColumnType<SavedSearchQuery>;
  alerts: boolean;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** boats created after this are new to the next alert */
  alerted_until: ColumnType<Date, Date | undefined, Date>;
  /** the UTC day (YYYY-MM-DD) of the last alert run that handled this search */
  alerted_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the last alert e-mail was written */
  last_alerted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
