import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { listUnmatchedPayments, resolveUnmatchedPayment } from '../../../../features/orders/orders.admin-repository.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.unmatchedPayments;

const denied = { 401: ErrorBody, 403: ErrorBody };

/** Money the provider reports as received that matches no order (or not its amount). Admins only. */
const unmatchedPayments: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      config: { permission: 'ledger.read' },
      schema: {
        summary: 'Payments received without a matching order, newest first',
        tags: ['admin'],
        security: [{ session: [] }],
        response: { [routes.list.status]: routes.list.response, ...denied },
      },
    },
    async () => ({ data: await listUnmatchedPayments(fastify.db) }),
  );

  fastify.post(
    '/:id/resolve',
    {
      config: { permission: 'reconciliation.write' },
      schema: {
        summary: 'Marks one as dealt with (e.g. refunded or matched by hand), with an optional note',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.resolve.params,
        body: routes.resolve.body,
        response: { [routes.resolve.status]: routes.resolve.response, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const item = isUuid(id)
        ? await resolveUnmatchedPayment(fastify.db, { id, adminId: request.user!.id, note: request.body.note?.trim() || null })
        : undefined;
      if (!item) throw notFound('Unmatched payment not found');
      return item;
    },
  );
};

export default unmatchedPayments;
