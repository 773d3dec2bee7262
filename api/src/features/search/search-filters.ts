import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { SEARCH_MAX_CHOICES, VAT_PAID_TREATMENTS, type SearchQuery } from '@boatshop/contract';
import type { Database } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';

export type Eb = ExpressionBuilder<Database, 'products'>;
export type Facet = 'category' | 'builder' | 'condition' | 'country' | 'cabins' | 'vatPaid' | 'price' | 'length' | 'year';

/** The choices as the database compares them: lengths in centimetres, lists split and bounded. */
export interface SearchFilters {
  category?: string | undefined;
  q?: string | undefined;
  builders: string[];
  condition?: string | undefined;
  countries: string[];
  priceMin?: number | undefined;
  priceMax?: number | undefined;
  lengthMinCm?: number | undefined;
  lengthMaxCm?: number | undefined;
  yearMin?: number | undefined;
  yearMax?: number | undefined;
  cabinsMin?: number | undefined;
  vatPaid: boolean;
  hideSold: boolean;
}

function splitList(raw: string | undefined, label: string, check: (value: string) => boolean): string[] {
  const values = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean),
    ),
  ];
  if (values.length > SEARCH_MAX_CHOICES) throw badRequest(`${label}: at most ${SEARCH_MAX_CHOICES} at a time`);
  const bad = values.filter((value) => !check(value));
  if (bad.length > 0) throw badRequest(`${label}: not a valid value`, bad);
  return values;
}

export function filtersOf(query: SearchQuery): SearchFilters {
  for (const [name, min, max] of [
    ['price', query.priceMin, query.priceMax],
    ['length', query.lengthMin, query.lengthMax],
    ['year', query.yearMin, query.yearMax],
  ] as const) {
    if (min !== undefined && max !== undefined && min > max) throw badRequest(`${name}: the minimum must not exceed the maximum`);
  }
  return {
    category: query.category,
    q: query.q?.trim() || undefined,
    builders: splitList(query.builder, 'builder', (value) => value.length <= 120 && !value.includes('\u0000')),
    condition: query.condition,
    countries: splitList(query.country, 'country', (value) => /^[A-Z]{2}$/.test(value)),
    priceMin: query.priceMin,
    priceMax: query.priceMax,
    lengthMinCm: query.lengthMin === undefined ? undefined : Math.round(query.lengthMin * 100),
    lengthMaxCm: query.lengthMax === undefined ? undefined : Math.round(query.lengthMax * 100),
    yearMin: query.yearMin,
    yearMax: query.yearMax,
    cabinsMin: query.cabinsMin,
    vatPaid: query.vatPaid === true,
    hideSold: query.hideSold === true,
  };
}

/** Every choice as one condition, leaving out the facets `except` (a facet's own counts ignore its choice). */
export function where(eb: Eb, f: SearchFilters, ...except: Facet[]): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  const skip = (facet: Facet) => except.includes(facet);
  if (f.category && !skip('category')) parts.push(eb('category', '=', f.category as never));
  if (f.q) parts.push(sql<SqlBool>`search @@ websearch_to_tsquery('english', ${f.q})`);
  if (f.builders.length > 0 && !skip('builder')) parts.push(eb('builder', 'in', f.builders));
  if (f.condition && !skip('condition')) parts.push(eb('condition', '=', f.condition as never));
  if (f.countries.length > 0 && !skip('country')) parts.push(eb('location_country', 'in', f.countries));
  if (!skip('price')) {
    if (f.priceMin !== undefined) parts.push(eb('price_cents', '>=', f.priceMin));
    if (f.priceMax !== undefined) parts.push(eb('price_cents', '<=', f.priceMax));
  }
  if (!skip('length')) {
    if (f.lengthMinCm !== undefined) parts.push(eb('length_overall_cm', '>=', f.lengthMinCm));
    if (f.lengthMaxCm !== undefined) parts.push(eb('length_overall_cm', '<=', f.lengthMaxCm));
  }
  if (!skip('year')) {
    if (f.yearMin !== undefined) parts.push(eb('year_built', '>=', f.yearMin));
    if (f.yearMax !== undefined) parts.push(eb('year_built', '<=', f.yearMax));
  }
  if (f.cabinsMin !== undefined && !skip('cabins')) parts.push(eb('cabins', '>=', f.cabinsMin));
  if (f.vatPaid && !skip('vatPaid')) parts.push(eb('vat_treatment', 'in', VAT_PAID_TREATMENTS));
  // Reserved boats stay: an expired order gives them back.
  if (f.hideSold) parts.push(eb.or([eb('stock_on_hand', 'is', null), eb('stock_on_hand', '>', 0)]));
  return eb.and(parts);
}
