/**
 * One combination of the list facets and its number of boats (docs/adr/0048), kept by the
 * products table's triggers. Unknown values are ''.
 */
export interface SearchFacetCellsTable {
  category: string;
  builder: string;
  condition: string;
  location_country: string;
  vat_treatment: string;
  /** not sold out: stock_on_hand null (built to order) or above 0 */
  available: boolean;
  boats: number;
  /** of `boats`, those with at least n cabins (a boat of unknown cabins counts in none) */
  cabins_0: number;
  cabins_1: number;
  cabins_2: number;
  cabins_3: number;
  cabins_4: number;
  cabins_5: number;
  cabins_6: number;
  /** the range facets' bounds among the cell's boats (null: none known) */
  price_min: number | null;
  price_max: number | null;
  length_min: number | null;
  length_max: number | null;
  year_min: number | null;
  year_max: number | null;
}
