import { Type, type Static } from '@sinclair/typebox';
import { SAVED_SEARCH_NAME_MAX_LENGTH, SAVED_SEARCH_PATH_MAX_LENGTH, TOKEN_MAX_LENGTH } from '../constants.js';
import { DateTime } from './common.js';
import { ProductSchema } from './products.js';
import { SearchQuerySchema } from './search.js';

// Keep and compare: a shopper's favourites and saved searches (/api/account/favourites,
// /api/account/saved-searches) and the e-mailed alerts' unsubscribe link.

export const FavouriteSchema = Type.Object({ product: ProductSchema, addedAt: DateTime() }, { title: 'Favourite' });
export type Favourite = Static<typeof FavouriteSchema>;

export const FavouriteListSchema = Type.Object(
  {
    /** newest first */
    favourites: Type.Array(FavouriteSchema),
  },
  { title: 'FavouriteList' },
);
export type FavouriteList = Static<typeof FavouriteListSchema>;

/** The ids alone: what the hearts on cards need. */
export const FavouriteIdsSchema = Type.Object({ productIds: Type.Array(Type.String({ format: 'uuid' })) }, { title: 'FavouriteIds' });
export type FavouriteIds = Static<typeof FavouriteIdsSchema>;

/** The choices of a saved search: the search's own query without its paging and order. */
export const SavedSearchQuerySchema = Type.Omit(SearchQuerySchema, ['cursor', 'limit', 'sort'], { additionalProperties: false });
export type SavedSearchQuery = Static<typeof SavedSearchQuerySchema>;

export const SavedSearchSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    /** the search page's address, to open it again */
    path: Type.String(),
    query: SavedSearchQuerySchema,
    /** a daily e-mail of new matching boats */
    alerts: Type.Boolean(),
    createdAt: DateTime(),
    lastAlertedAt: Type.Union([DateTime(), Type.Null()]),
  },
  { title: 'SavedSearch' },
);
export type SavedSearch = Static<typeof SavedSearchSchema>;

export const SavedSearchListSchema = Type.Object({ savedSearches: Type.Array(SavedSearchSchema) }, { title: 'SavedSearchList' });
export type SavedSearchList = Static<typeof SavedSearchListSchema>;

export const SavedSearchBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: SAVED_SEARCH_NAME_MAX_LENGTH, pattern: '^[^\\u0000]*\\S[^\\u0000]*$' }),
    path: Type.String({ maxLength: SAVED_SEARCH_PATH_MAX_LENGTH, pattern: '^/search(/[a-z-]+)?(\\?.*)?$' }),
    query: SavedSearchQuerySchema,
    /** e-mail me new matching boats once a day (records the alerts consent) */
    alerts: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SavedSearchBody = Static<typeof SavedSearchBodySchema>;

export const UnsubscribeQuerySchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: TOKEN_MAX_LENGTH }) });
export type UnsubscribeQuery = Static<typeof UnsubscribeQuerySchema>;

export const UnsubscribeResultSchema = Type.Object(
  { name: Type.String({ description: 'the saved search whose alerts stopped' }) },
  { title: 'UnsubscribeResult' },
);
export type UnsubscribeResult = Static<typeof UnsubscribeResultSchema>;

export const AlertRunSchema = Type.Object(
  { sent: Type.Integer({ minimum: 0, description: 'alert e-mails written to the outbox by this run' }) },
  { title: 'AlertRun' },
);
export type AlertRun = Static<typeof AlertRunSchema>;
