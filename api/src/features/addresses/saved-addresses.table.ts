import type { SavedAddressKind } from '@boatshop/contract';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { AddressJson } from '../orders/orders.table.js';

/** A shopper's saved address; at most one default per account and kind. */
export interface SavedAddressesTable {
  id: Generated<string>;
  user_id: string;
  kind: SavedAddressKind;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  name: string;
  address: JSONColumnType<AddressJson>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
