import { Type, type Static } from '@sinclair/typebox';
import {
  ADMIN_PRODUCTS_PAGE_SIZE,
  CURSOR_MAX_LENGTH,
  MAX_PRICE_CENTS,
  MAX_STOCK,
  PRODUCT_NAME_MAX_LENGTH,
  PRODUCT_NAME_MIN_LENGTH,
  PRODUCTS_MAX_PAGE_SIZE,
} from '../constants.js';
import { BoatSpecsSchema } from './boat-specs.js';
import { withDefault } from './common.js';
import { CategorySchema } from './products.js';

// The catalogue as administrators manage it: /api/admin/products.

export const ProductInputSchema = Type.Object(
  {
    name: Type.String({
      maxLength: 1000,
      description: `${PRODUCT_NAME_MIN_LENGTH} to ${PRODUCT_NAME_MAX_LENGTH} characters once trimmed`,
    }),
    thumbnailUrl: Type.String({
      maxLength: 2048,
      description: 'an http(s) address, or a shipped picture under /api/images/',
    }),
    priceCents: Type.Integer({ description: `integer euro cents, 1 to ${MAX_PRICE_CENTS}` }),
    descriptionHtml: Type.String({ maxLength: 100_000, description: 'HTML; sanitised on write with an allowlist' }),
    category: CategorySchema,
    // One type list, not anyOf: with Fastify's type coercion, anyOf's integer branch would turn null into 0.
    stock: Type.Optional(
      Type.Unsafe<number | null>({
        type: ['integer', 'null'],
        description:
          `units a shopper can buy now, 0 to ${MAX_STOCK}; null = built to order (unlimited). ` +
          'Units held by open orders come on top. Left out: null on create, unchanged on update.',
      }),
    ),
    // Left out: all unknown on create, unchanged on update.
    specs: Type.Optional(BoatSpecsSchema),
    // Left out: false on create, unchanged on update.
    seaTrials: Type.Optional(Type.Boolean({ description: 'shoppers may book a sea trial of this boat, not only a viewing' })),
  },
  { title: 'ProductInput', additionalProperties: false },
);
export type ProductInput = Static<typeof ProductInputSchema>;

export const AdminProductListQuerySchema = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: CURSOR_MAX_LENGTH, description: 'from the previous page' })),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: PRODUCTS_MAX_PAGE_SIZE }), ADMIN_PRODUCTS_PAGE_SIZE),
});
export type AdminProductListQuery = Static<typeof AdminProductListQuerySchema>;
