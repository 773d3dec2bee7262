import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
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
};

export default vat;
