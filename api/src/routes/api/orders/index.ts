import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { findOrderOfUser, listPaidOrdersOfUser } from '../../../features/orders/orders.repository.js';
import { OrderSchema, OrderSummarySchema } from '../../../features/orders/orders.schema.js';
import { ErrorBody, notFound } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/uuid.js';

const orders: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The caller's orders that were paid, or reserved with a deposit (any state since), newest first",
        tags: ['orders'],
        security: [{ session: [] }],
        response: { 200: Type.Object({ data: Type.Array(OrderSummarySchema) }), 401: ErrorBody },
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
        params: Type.Object({ id: Type.String() }),
        response: { 200: OrderSchema, 401: ErrorBody, 404: ErrorBody },
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
