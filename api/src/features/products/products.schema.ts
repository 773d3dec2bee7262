import { Type, type Static } from '@sinclair/typebox';
import { CATEGORIES } from './categories.js';

// Mirrors Product / ProductPage in packages/state/src/contract.ts.

// An enum (not a union of literals) so a wrong value gets one clear "must be one of" message.
export const CategorySchema = Type.Unsafe<(typeof CATEGORIES)[number]>({
  type: 'string',
  enum: [...CATEGORIES],
  description: 'Product category',
});

export const AVAILABILITIES = ['in_stock', 'reserved', 'sold_out'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

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
