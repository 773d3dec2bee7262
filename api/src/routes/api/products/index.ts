import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  findProductById,
  findProductsByIds,
  listProducts,
} from '../../../features/products/products.repository.js';
import { CategorySchema, ProductPageSchema, ProductSchema } from '../../../features/products/products.schema.js';
import { badRequest, ErrorBody, notFound } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/uuid.js';

const MAX_IDS = 100;

const products: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Products, newest first; with `q`, best match first',
        tags: ['products'],
        querystring: Type.Object({
          filterType: Type.Optional(CategorySchema),
          q: Type.Optional(Type.String({ maxLength: 200, description: 'full-text search over name and description' })),
          cursor: Type.Optional(Type.String({ maxLength: 300, description: 'from the previous page' })),
          limit: Type.Integer({ minimum: 1, maximum: 48, default: 6 }),
        }),
        response: { 200: ProductPageSchema, 400: ErrorBody },
      },
    },
    async (request) => {
      const { filterType, q, cursor, limit } = request.query;
      return listProducts(fastify.db, { category: filterType, query: q, cursor, limit });
    },
  );

  fastify.get(
    '/by-ids',
    {
      schema: {
        summary: 'The current state of the given products (unknown ids are left out)',
        tags: ['products'],
        querystring: Type.Object({
          ids: Type.String({ maxLength: 8000, description: `comma-separated product ids, at most ${MAX_IDS}` }),
        }),
        response: { 200: Type.Object({ data: Type.Array(ProductSchema) }), 400: ErrorBody },
      },
    },
    async (request) => {
      const ids = [...new Set(request.query.ids.split(',').map((id) => id.trim()).filter(Boolean))];
      if (ids.length > MAX_IDS) throw badRequest(`ids: at most ${MAX_IDS} product ids at a time`);
      const malformed = ids.filter((id) => !isUuid(id));
      if (malformed.length > 0) throw badRequest('ids: every id must be a product id (uuid)', malformed);
      return { data: await findProductsByIds(fastify.db, ids) };
    },
  );

  fastify.get(
    '/:id',
    {
      schema: {
        summary: 'One product',
        tags: ['products'],
        params: Type.Object({ id: Type.String() }),
        response: { 200: ProductSchema, 404: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const product = isUuid(id) ? await findProductById(fastify.db, id) : undefined;
      if (!product) throw notFound('Product not found');
      return product;
    },
  );
};

export default products;
