import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { findProductById, findProductsByIds, listProducts } from '../../../features/products/products.repository.js';
import { CategorySchema, ProductPageSchema, ProductSchema } from '../../../features/products/products.schema.js';
import { badRequest, ErrorBody, notFound } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/uuid.js';

const MAX_IDS = 100;
// What Fastify sends for a serialized object; a string sent with it goes out as it is.
const JSON_TYPE = 'application/json; charset=utf-8';

/** The body exactly as the route would send `payload`: through its 200 response schema. */
function serialize(reply: FastifyReply, payload: unknown): string {
  return reply.serialize(payload) as string;
}

function sendSerialized(reply: FastifyReply, json: string): FastifyReply {
  return reply.type(JSON_TYPE).send(json);
}

/**
 * The catalogue as shoppers read it. The list and single-product answers come from the
 * per-process cache (fastify.catalogCache) while it is in use; /by-ids, which the cart uses to
 * refresh prices, always reads the database, and so does everything that charges money.
 */

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
          available: Type.Optional(Type.Boolean({ description: 'true: leave out sold-out boats (the browse list\'s "Hide sold boats")' })),
          cursor: Type.Optional(Type.String({ maxLength: 300, description: 'from the previous page' })),
          limit: Type.Integer({ minimum: 1, maximum: 48, default: 6 }),
        }),
        response: { 200: ProductPageSchema, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      const { filterType, q, available, cursor, limit } = request.query;
      const options = { category: filterType, query: q, availableOnly: available, cursor, limit };
      // With the cache off or not in use, getOrLoad simply runs the query.
      const key = JSON.stringify(['list', filterType ?? '', q?.trim() ?? '', available === true, cursor ?? '', limit]);
      const json = await fastify.catalogCache.getOrLoad(key, async () => serialize(reply, await listProducts(fastify.db, options)));
      return sendSerialized(reply, json!);
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
      const ids = [
        ...new Set(
          request.query.ids
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ];
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
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('Product not found');
      const json = await fastify.catalogCache.getOrLoad(JSON.stringify(['product', id.toLowerCase()]), async () => {
        const product = await findProductById(fastify.db, id);
        return product && serialize(reply, product);
      });
      if (json === undefined) throw notFound('Product not found');
      return sendSerialized(reply, json);
    },
  );
};

export default products;
