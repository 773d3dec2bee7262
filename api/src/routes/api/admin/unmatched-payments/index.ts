import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { listUnmatchedPayments, resolveUnmatchedPayment } from '../../../../features/orders/orders.admin-repository.js';
import { Text, UnmatchedPaymentSchema } from '../../../../features/orders/orders.admin-schema.js';
import { ErrorBody, notFound } from '../../../../lib/errors.js';
import { isUuid } from '../../../../lib/uuid.js';

const denied = { 401: ErrorBody, 403: ErrorBody };

/** Money the provider reports as received that matches no order (or not its amount). Admins only. */
const unmatchedPayments: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Payments received without a matching order, newest first',
        tags: ['admin'],
        security: [{ session: [] }],
        response: { 200: Type.Object({ data: Type.Array(UnmatchedPaymentSchema) }), ...denied },
      },
    },
    async () => ({ data: await listUnmatchedPayments(fastify.db) }),
  );

  fastify.post(
    '/:id/resolve',
    {
      schema: {
        summary: 'Marks one as dealt with (e.g. refunded or matched by hand), with an optional note',
        tags: ['admin'],
        security: [{ session: [] }],
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Object({ note: Type.Optional(Text(1000)) }, { additionalProperties: false }),
        response: { 200: UnmatchedPaymentSchema, 400: ErrorBody, ...denied, 404: ErrorBody },
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
