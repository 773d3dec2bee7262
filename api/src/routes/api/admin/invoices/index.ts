import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { storedInvoiceDocument } from '../../../../features/invoices/invoice-documents.js';
import { invoiceExists, invoicesCsv, listInvoicesInPeriod, vatSummary } from '../../../../features/invoices/invoices.repository.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.books;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** The books for staff who may read invoices: the documents of a period, their files, the CSV and the VAT summary. */
const adminInvoices: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      config: { permission: 'invoices.read' },
      schema: {
        summary: 'Invoices and credit notes issued in a period (days, both included, at most a year)',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.adminInvoices.query,
        response: { [routes.adminInvoices.status]: routes.adminInvoices.response, 400: ErrorBody, ...denied },
      },
    },
    async (request) => ({ data: await listInvoicesInPeriod(fastify.db, request.query) }),
  );

  fastify.get(
    '/export',
    {
      config: { permission: 'invoices.read' },
      schema: {
        summary: "The period's documents as CSV for the accountant (semicolons, decimal comma, credit notes negative)",
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.adminInvoicesCsv.query,
        response: { [routes.adminInvoicesCsv.status]: routes.adminInvoicesCsv.response, 400: ErrorBody, ...denied },
      },
    },
    async (request, reply) => {
      const csv = await invoicesCsv(fastify.db, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="invoices-${request.query.from}-${request.query.to}.csv"`)
        .send(csv);
    },
  );

  fastify.get(
    '/vat-summary',
    {
      config: { permission: 'invoices.read' },
      schema: {
        summary: 'VAT per country, rate and case for a period, as an OSS return reads it',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.adminVatSummary.query,
        response: { [routes.adminVatSummary.status]: routes.adminVatSummary.response, 400: ErrorBody, ...denied },
      },
    },
    async (request) => vatSummary(fastify.db, request.query),
  );

  fastify.get(
    '/:id/pdf',
    {
      config: { permission: 'invoices.read' },
      schema: {
        summary: "A document's file, the same bytes the buyer downloads",
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.adminInvoicePdf.params,
        response: { [routes.adminInvoicePdf.status]: routes.adminInvoicePdf.response, 404: ErrorBody, ...denied },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id) || !(await invoiceExists(fastify.db, id))) throw notFound('Invoice not found');
      const document = await storedInvoiceDocument(fastify.db, id);
      if (!document) throw notFound('Invoice not found');
      return reply
        .header('content-type', document.mediaType)
        .header('content-disposition', `attachment; filename="${document.fileName}"`)
        .header('etag', `"${document.sha256}"`)
        .header('x-content-sha256', document.sha256)
        .send(document.content);
    },
  );
};

export default adminInvoices;
