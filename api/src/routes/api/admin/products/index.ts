import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { deleteProduct, insertProduct, updateProduct } from '../../../../features/products/products.admin-repository.js';
import { normaliseProductInput, ProductInputSchema } from '../../../../features/products/products.admin-schema.js';
import { listProducts } from '../../../../features/products/products.repository.js';
import { ProductPageSchema, ProductSchema } from '../../../../features/products/products.schema.js';
import { ErrorBody, notFound } from '../../../../lib/errors.js';
import { isUuid } from '../../../../lib/uuid.js';

const IdParams = Type.Object({ id: Type.String() });
const denied = { 401: ErrorBody, 403: ErrorBody };

/** The catalogue as administrators manage it. The folder's autohooks.ts admits admins only. */
const adminProducts: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Every product, newest first, a page at a time',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: Type.Object({
          cursor: Type.Optional(Type.String({ maxLength: 300, description: 'from the previous page' })),
          limit: Type.Integer({ minimum: 1, maximum: 48, default: 12 }),
        }),
        response: { 200: ProductPageSchema, 400: ErrorBody, ...denied },
      },
    },
    async (request) => listProducts(fastify.db, { cursor: request.query.cursor, limit: request.query.limit }),
  );

  fastify.post(
    '/',
    {
      schema: {
        summary: 'Add a product; the signed-in admin is recorded as its creator',
        tags: ['admin'],
        security: [{ session: [] }],
        body: ProductInputSchema,
        response: { 201: ProductSchema, 400: ErrorBody, ...denied },
      },
    },
    async (request, reply) => {
      const product = await insertProduct(fastify.db, normaliseProductInput(request.body), request.user!.id);
      // Before answering: the admin's next look at the shop must show the change. Other replicas
      // hear of it through the products_changed notification.
      fastify.catalogCache.clear();
      return reply.code(201).send(product);
    },
  );

  fastify.put(
    '/:id',
    {
      schema: {
        summary: 'Replace a product; orders keep the snapshot they were placed with',
        tags: ['admin'],
        security: [{ session: [] }],
        params: IdParams,
        body: ProductInputSchema,
        response: { 200: ProductSchema, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const input = normaliseProductInput(request.body);
      const { id } = request.params;
      const product = isUuid(id) ? await updateProduct(fastify.db, id, input) : undefined;
      if (!product) throw notFound('Product not found');
      fastify.catalogCache.clear();
      return product;
    },
  );

  fastify.delete(
    '/:id',
    {
      schema: {
        summary: 'Remove a product from the shop; orders keep their item snapshots',
        tags: ['admin'],
        security: [{ session: [] }],
        params: IdParams,
        response: { 204: Type.Null(), ...denied, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = isUuid(id) && (await deleteProduct(fastify.db, id));
      if (!deleted) throw notFound('Product not found');
      fastify.catalogCache.clear();
      return reply.code(204).send(null);
    },
  );
};

export default adminProducts;
