import { Type, type Static } from '@sinclair/typebox';
import { BOAT_CONDITIONS, BOAT_LIMITS, SEARCH_SORTS, type BoatCondition, type SearchSort } from '../boat-specs.js';
import { CURSOR_MAX_LENGTH, MAX_PRICE_CENTS, PRODUCTS_MAX_PAGE_SIZE, PRODUCTS_PAGE_SIZE, SEARCH_MAX_LENGTH } from '../constants.js';
import { withDefault } from './common.js';
import { CategorySchema, ProductSchema } from './products.js';

// GET /api/products/search: the catalogue filtered by facets, a page at a time, with the count
// of each facet value under the other choices (so picking one builder still shows the others).

const SortSchema = Type.Unsafe<SearchSort>({ type: 'string', enum: [...SEARCH_SORTS], description: 'order of the results' });
const ConditionSchema = Type.Unsafe<BoatCondition>({ type: 'string', enum: [...BOAT_CONDITIONS], description: 'new or used' });
const list = (description: string) => Type.String({ maxLength: 2000, description: `${description}, comma-separated` });

export const SearchQuerySchema = Type.Object({
  category: Type.Optional(CategorySchema),
  q: Type.Optional(Type.String({ maxLength: SEARCH_MAX_LENGTH, description: 'words in the name or description' })),
  builder: Type.Optional(list('builders (any of)')),
  condition: Type.Optional(ConditionSchema),
  country: Type.Optional(list('ISO country codes where the boat lies (any of)')),
  priceMin: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PRICE_CENTS, description: 'euro cents, inclusive' })),
  priceMax: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PRICE_CENTS, description: 'euro cents, inclusive' })),
  lengthMin: Type.Optional(Type.Number({ minimum: 0, maximum: BOAT_LIMITS.lengthMaxM, description: 'metres, inclusive' })),
  lengthMax: Type.Optional(Type.Number({ minimum: 0, maximum: BOAT_LIMITS.lengthMaxM, description: 'metres, inclusive' })),
  yearMin: Type.Optional(Type.Integer({ minimum: BOAT_LIMITS.yearBuiltMin, maximum: 2200, description: 'year built, inclusive' })),
  yearMax: Type.Optional(Type.Integer({ minimum: BOAT_LIMITS.yearBuiltMin, maximum: 2200, description: 'year built, inclusive' })),
  cabinsMin: Type.Optional(Type.Integer({ minimum: 0, maximum: BOAT_LIMITS.roomsMax, description: 'at least this many cabins' })),
  vatPaid: Type.Optional(
    Type.Boolean({ description: 'only boats whose VAT is paid: VAT-paid own stock or margin scheme (VAT_PAID_TREATMENTS)' }),
  ),
  hideSold: Type.Optional(Type.Boolean({ description: 'leave out sold-out boats' })),
  sort: withDefault(SortSchema, 'newest'),
  cursor: Type.Optional(Type.String({ maxLength: CURSOR_MAX_LENGTH, description: 'from the previous page' })),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: PRODUCTS_MAX_PAGE_SIZE }), PRODUCTS_PAGE_SIZE),
});
export type SearchQuery = Static<typeof SearchQuerySchema>;

const FacetCountSchema = Type.Object({
  value: Type.String(),
  count: Type.Integer({ minimum: 0 }),
  approximate: Type.Optional(
    Type.Boolean({ description: 'true: an estimate (two significant figures) of a value not chosen, where the facet counts many boats' }),
  ),
});
const RangeSchema = Type.Object({
  min: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Union([Type.Number(), Type.Null()]),
});

export const SearchFacetsSchema = Type.Object(
  {
    category: Type.Array(FacetCountSchema),
    builder: Type.Array(FacetCountSchema, { description: 'the most frequent first, at most 30, plus any chosen' }),
    condition: Type.Array(FacetCountSchema),
    country: Type.Array(FacetCountSchema),
    cabins: Type.Array(FacetCountSchema, { description: 'boats with at least `value` cabins, for 1 to 6' }),
    vatPaid: Type.Integer({ minimum: 0, description: 'boats whose VAT is paid, under every other choice' }),
    price: Type.Object({ min: Type.Union([Type.Integer(), Type.Null()]), max: Type.Union([Type.Integer(), Type.Null()]) }),
    length: RangeSchema,
    year: RangeSchema,
  },
  { title: 'SearchFacets' },
);
export type SearchFacets = Static<typeof SearchFacetsSchema>;

export const SearchResultSchema = Type.Object(
  {
    data: Type.Array(ProductSchema),
    cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass back as `cursor` for the next page' }),
    isLastPage: Type.Boolean(),
    total: Type.Integer({ minimum: 0, description: 'boats matching every choice' }),
    facets: SearchFacetsSchema,
  },
  { title: 'SearchResult' },
);
export type SearchResult = Static<typeof SearchResultSchema>;

// GET /api/products/search/builders: every builder with boats listed, for the builder pages'
// sitemap entries (/search?builder=…).
export const SearchBuildersSchema = Type.Object(
  {
    data: Type.Array(Type.Object({ builder: Type.String(), boats: Type.Integer({ minimum: 1 }) })),
  },
  { title: 'SearchBuilders' },
);
export type SearchBuilders = Static<typeof SearchBuildersSchema>;
