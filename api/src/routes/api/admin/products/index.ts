import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { normaliseProductInput } from '../../../../features/products/product-input.js';
import { deleteProduct, insertProduct, updateProduct } from '../../../../features/products/products.admin-repository.js';
import { listProducts } from '../../../../features/products/products.repository.js';
import { withShortOrders } from '../../../../features/stock/short-orders.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.products;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** The catalogue as administrators manage it. The admin folder's autohooks.ts admits the roles holding each route's permission. */
const adminProducts: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      config: { permission: 'catalog.read' },
      schema: {
        summary: 'Every product, newest first, a page at a time',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody, ...denied },
      },
    },
    async (request) =>
      withShortOrders(fastify.db, await listProducts(fastify.db, { cursor: request.query.cursor, limit: request.query.limit })),
  );

  fastify.post(
    '/',
    {
      config: { permission: 'catalog.write' },
      schema: {
        summary: 'Add a product; the signed-in admin is recorded as its creator',
        tags: ['admin'],
        security: [{ session: [] }],
        body: routes.create.body,
        response: { [routes.create.status]: routes.create.response, 400: ErrorBody, ...denied },
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
      config: { permission: 'catalog.write' },
      schema: {
        summary: 'Replace a product; orders keep the snapshot they were placed with',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.update.params,
        body: routes.update.body,
        response: { [routes.update.status]: routes.update.response, 400: ErrorBody, ...denied, 404: ErrorBody },
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
      config: { permission: 'catalog.write' },
      schema: {
        summary: 'Remove a product from the shop; orders keep their item snapshots',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.remove.params,
        response: { [routes.remove.status]: routes.remove.response, ...denied, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = isUuid(id) ? await deleteProduct(fastify.db, id) : null;
      if (!deleted) throw notFound('Product not found');
      fastify.catalogCache.clear();
      // Its pictures' files go too; the boat is gone whatever the storage answers, so a failure is logged, not sent.
      await fastify.pictureStorage.remove(deleted.storedKeys).catch((error: unknown) => {
        request.log.error({ err: error, productId: id }, 'pictures of a deleted product left in storage');
      });
      return reply.code(204).send(null);
    },
  );
};

export default adminProducts;
