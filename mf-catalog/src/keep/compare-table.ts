import type { Product } from '@boatshop/contract';
import { boatSpecRows, type UnitSystem } from '@boatshop/contract/constants';

export interface CompareRow {
  key: string;
  label: string;
  /** one cell per boat, in the boats' order; null where that boat's figure is unknown */
  cells: (string | null)[];
}

/**
 * The boats' specifications as the rows of one table: every specification any of them has, in
 * the product page's order (each boat's rows are in that order, so merging keeps it), with a gap
 * where a boat's figure is unknown.
 */
export function compareRows(products: readonly Product[], units: UnitSystem): CompareRow[] {
  const perBoat = products.map(
    (product) => new Map((product.specs ? boatSpecRows(product.specs, units) : []).map((row) => [row.key, row])),
  );
  const order: { key: string; label: string }[] = [];
  for (const rows of perBoat) {
    let at = 0;
    for (const row of rows.values()) {
      const found = order.findIndex((known) => known.key === row.key);
      if (found === -1) order.splice(at, 0, { key: row.key, label: row.label });
      at = (found === -1 ? at : found) + 1;
    }
  }
  return order.map(({ key, label }) => ({ key, label, cells: perBoat.map((rows) => rows.get(key)?.text ?? null) }));
}
