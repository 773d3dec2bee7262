import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { findOrderOfUser, listPaidOrdersOfUser } from '../../../features/orders/orders.repository.js';
import { notFound } from '../../../lib/errors.js';

const routes = ROUTES.orders;

const orders: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The caller's orders that were paid, or reserved with a deposit (any state since), newest first",
        tags: ['orders'],
        security: [{ session: [] }],
        response: { [routes.list.status]: routes.list.response, 401: ErrorBody },
      },
    },
    async (request) => ({ data: await listPaidOrdersOfUser(fastify.db, request.user!.id) }),
  );

  fastify.get(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "One of the caller's orders; anyone else's is 404, so ids reveal nothing",
        tags: ['orders'],
        security: [{ session: [] }],
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const order = isUuid(id) ? await findOrderOfUser(fastify.db, request.user!.id, id, fastify.config.deposits) : undefined;
      if (!order) throw notFound('Order not found');
      return order;
    },
  );
};

export default orders;
