import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ROUTES, ErrorBodySchema as ErrorBody, isUuid, MAX_IDS_PER_REQUEST } from '@boatshop/contract';
import type { FastifyReply } from 'fastify';
import { findProductById, findProductsByIds, listProducts } from '../../../features/products/products.repository.js';
import { picturesOfProduct } from '../../../features/pictures/pictures.repository.js';
import { badRequest, notFound } from '../../../lib/errors.js';

const routes = ROUTES.products;
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
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody },
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
        querystring: routes.byIds.query,
        response: { [routes.byIds.status]: routes.byIds.response, 400: ErrorBody },
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
      if (ids.length > MAX_IDS_PER_REQUEST) throw badRequest(`ids: at most ${MAX_IDS_PER_REQUEST} product ids at a time`);
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
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('Product not found');
      const json = await fastify.catalogCache.getOrLoad(JSON.stringify(['product', id.toLowerCase()]), async () => {
        const product = await findProductById(fastify.db, id);
        return product && serialize(reply, { ...product, pictures: await picturesOfProduct(fastify.db, product) });
      });
      if (json === undefined) throw notFound('Product not found');
      return sendSerialized(reply, json);
    },
  );
};

export default products;
