import { Type, type Static } from '@sinclair/typebox';
import {
  AVAILABILITIES,
  CATEGORIES,
  CURSOR_MAX_LENGTH,
  MAX_IDS_PER_REQUEST,
  PRODUCTS_MAX_PAGE_SIZE,
  PRODUCTS_PAGE_SIZE,
  SEARCH_MAX_LENGTH,
  type Availability,
  type Category,
} from '../constants.js';
import { BoatSpecsSchema } from './boat-specs.js';
import { withDefault } from './common.js';
import { ProductPictureSchema } from './pictures.js';

// The catalogue as shoppers read it: GET /api/products, /api/products/by-ids, /api/products/:id.

// An enum (not a union of literals) so a wrong value gets one clear "must be one of" message.
export const CategorySchema = Type.Unsafe<Category>({
  type: 'string',
  enum: [...CATEGORIES],
  description: 'Product category',
});

export const AvailabilitySchema = Type.Unsafe<Availability>({
  type: 'string',
  enum: [...AVAILABILITIES],
  description: 'reserved: none free but some held by open orders; sold_out: none left at all',
});

export const ProductSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    thumbnailUrl: Type.String(),
    priceCents: Type.Integer({ description: 'integer euro cents' }),
    descriptionHtml: Type.String({ description: 'sanitised HTML' }),
    category: CategorySchema,
    createdAt: Type.String({ format: 'date-time' }),
    stock: Type.Union([Type.Integer(), Type.Null()], {
      description: 'units a shopper can buy now (on hand minus those held by open orders); null = built to order, unlimited',
    }),
    availability: AvailabilitySchema,
    // Always sent by the API; optional in the type so that a product made by hand (a test's,
    // a cart line's snapshot) need not spell out twenty unknowns.
    specs: Type.Optional(BoatSpecsSchema),
    // sales: whether "Book a viewing" also offers a sea trial of this boat
    seaTrials: Type.Optional(Type.Boolean({ description: 'a booking may be a sea trial (the boat sailed), set by the admin' })),
    // Sent with one product (GET /api/products/:id), in order; the first is thumbnailUrl's picture.
    pictures: Type.Optional(Type.Array(ProductPictureSchema)),
    // ledger: admins only
    shortOrders: Type.Optional(
      Type.Integer({ description: 'admins only: open orders paid for this boat whose unit went to another order (stock short)' }),
    ),
  },
  { title: 'Product' },
);
export type Product = Static<typeof ProductSchema>;

export const ProductPageSchema = Type.Object(
  {
    data: Type.Array(ProductSchema),
    cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass back as `cursor` for the next page' }),
    isLastPage: Type.Boolean(),
  },
  { title: 'ProductPage' },
);
export type ProductPage = Static<typeof ProductPageSchema>;

export const ProductListQuerySchema = Type.Object({
  filterType: Type.Optional(CategorySchema),
  q: Type.Optional(Type.String({ maxLength: SEARCH_MAX_LENGTH, description: 'full-text search over name and description' })),
  available: Type.Optional(Type.Boolean({ description: 'true: leave out sold-out boats (the browse list\'s "Hide sold boats")' })),
  cursor: Type.Optional(Type.String({ maxLength: CURSOR_MAX_LENGTH, description: 'from the previous page' })),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: PRODUCTS_MAX_PAGE_SIZE }), PRODUCTS_PAGE_SIZE),
});
export type ProductListQuery = Static<typeof ProductListQuerySchema>;

export const ProductsByIdsQuerySchema = Type.Object({
  ids: Type.String({ maxLength: 8000, description: `comma-separated product ids, at most ${MAX_IDS_PER_REQUEST}` }),
});
export type ProductsByIdsQuery = Static<typeof ProductsByIdsQuerySchema>;

export const ProductListSchema = Type.Object({ data: Type.Array(ProductSchema) });
export type ProductList = Static<typeof ProductListSchema>;
