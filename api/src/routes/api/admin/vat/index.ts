import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, EU_COUNTRIES, isUuid, ROUTES } from '@boatshop/contract';
import { addVatRate, isCalendarDay, listVatRates, setProductVat } from '../../../../features/vat/vat.repository.js';
import { correctOrderVat, orderVatStatus } from '../../../../features/vat/vat-correction.js';
import { badRequest, conflict, notFound } from '../../../../lib/errors.js';

const routes = ROUTES.books;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** VAT as the admin manages it: each boat's treatment, and the rates table. The folder's autohooks admit admins only. */
const adminVat: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.put(
    '/products/:id',
    {
      config: { permission: 'catalog.write' },
      schema: {
        summary: "Set a product's VAT treatment; the new-boat facts are kept for new boats only",
        tags: ['admin', 'vat'],
        security: [{ session: [] }],
        params: routes.adminSetProductVat.params,
        body: routes.adminSetProductVat.body,
        response: { [routes.adminSetProductVat.status]: routes.adminSetProductVat.response, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      if (body.firstUsedOn && !isCalendarDay(body.firstUsedOn)) throw badRequest('First use must be a real day');
      const saved = isUuid(id) ? await setProductVat(fastify.db, id, body) : undefined;
      if (!saved) throw notFound('Product not found');
      fastify.catalogCache.clear();
      return saved;
    },
  );

  fastify.get(
    '/rates',
    {
      config: { permission: 'invoices.read' },
      schema: {
        summary: 'The VAT rates table: every standard rate with the day it starts to apply',
        tags: ['admin', 'vat'],
        security: [{ session: [] }],
        response: { [routes.adminVatRates.status]: routes.adminVatRates.response, ...denied },
      },
    },
    async () => ({ data: await listVatRates(fastify.db) }),
  );

  fastify.post(
    '/rates',
    {
      config: { permission: 'invoices.write' },
      schema: {
        summary: "Add a member state's standard rate from a day on (a rate change needs no release)",
        tags: ['admin', 'vat'],
        security: [{ session: [] }],
        body: routes.adminAddVatRate.body,
        response: { [routes.adminAddVatRate.status]: routes.adminAddVatRate.response, 400: ErrorBody, ...denied, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const rate = request.body;
      if (!(EU_COUNTRIES as readonly string[]).includes(rate.countryCode)) throw badRequest(`${rate.countryCode} is not a member state`);
      if (!isCalendarDay(rate.validFrom)) throw badRequest('Valid from must be a real day');
      if (!(await addVatRate(fastify.db, rate)))
        throw conflict('RATE_EXISTS', `${rate.countryCode} already has a rate from ${rate.validFrom}`);
      return reply.code(201).send(rate);
    },
  );

  fastify.get(
    '/orders/:id',
    {
      config: { permission: 'invoices.read' },
      schema: {
        summary: "The buyer an order's VAT was decided for (VAT ID, VIES's answer), and its correction if any",
        tags: ['admin', 'vat'],
        security: [{ session: [] }],
        params: routes.adminOrderVat.params,
        response: { [routes.adminOrderVat.status]: routes.adminOrderVat.response, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const status = isUuid(request.params.id) ? await orderVatStatus(fastify.db, request.params.id) : undefined;
      if (!status) throw notFound('Order not found');
      return status;
    },
  );

  fastify.post(
    '/orders/:id/correction',
    {
      config: { permission: 'invoices.write' },
      schema: {
        summary: "Correct an order's VAT once VIES confirms the business buyer's VAT ID it could not confirm at checkout",
        description:
          'Each invoice of the order gets a credit note for what it charged and is issued again under the confirmed VAT ID; the ' +
          "order's total becomes the exempt amount, and what was received beyond it is owed back (refund it with the usual " +
          'refund actions: those refunds need no further credit note). 409 while VIES still cannot confirm the ID.',
        tags: ['admin', 'vat'],
        security: [{ session: [] }],
        params: routes.adminCorrectOrderVat.params,
        response: { [routes.adminCorrectOrderVat.status]: routes.adminCorrectOrderVat.response, ...denied, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw notFound('Order not found');
      return correctOrderVat(fastify.db, fastify.config, request.params.id);
    },
  );
};

export default adminVat;
