import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { checkBuyer } from '../../../features/vat/buyer-checks.js';
import { findProductVat } from '../../../features/vat/vat.repository.js';
import { notFound } from '../../../lib/errors.js';

const routes = ROUTES.books;

/** VAT facts shoppers may read: a boat's VAT treatment, shown on its page. */
const vat: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/products/:id',
    {
      schema: {
        summary: "A product's VAT treatment, with the facts that make a new boat new",
        tags: ['vat'],
        params: routes.productVat.params,
        response: { [routes.productVat.status]: routes.productVat.response, 404: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = isUuid(id) ? await findProductVat(fastify.db, id) : undefined;
      if (!found) throw notFound('Product not found');
      return found;
    },
  );

  fastify.post(
    '/buyer-checks',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The buyer a checkout declares: a business's VAT ID is checked with VIES, and each cart line's VAT decided",
        tags: ['vat'],
        security: [{ session: [] }],
        body: routes.buyerCheck.body,
        response: { [routes.buyerCheck.status]: routes.buyerCheck.response, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const check = await checkBuyer(fastify.db, fastify.config, request.user!.id, request.body);
      return reply.code(201).send(check);
    },
  );
};

export default vat;
