import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { storedInvoiceDocument } from '../../../features/invoices/invoice-documents.js';
import { isInvoiceOfUser, listOrderInvoices } from '../../../features/invoices/invoices.repository.js';
import { loadProForma } from '../../../features/invoices/pro-forma.js';
import { proFormaFileName, renderProFormaPdf } from '../../../features/invoices/render/pro-forma-pdf.js';
import { notFound } from '../../../lib/errors.js';

const routes = ROUTES.books;

/** The shopper's invoices and credit notes: only the owner of the order sees or downloads them. */
const invoices: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The invoices and credit notes of one of the caller's orders, oldest first (another's order: none)",
        tags: ['invoices'],
        security: [{ session: [] }],
        querystring: routes.orderInvoices.query,
        response: { [routes.orderInvoices.status]: routes.orderInvoices.response, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => ({ data: await listOrderInvoices(fastify.db, request.user!.id, request.query.orderId) }),
  );

  fastify.get(
    '/:id/pdf',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'The document as PDF/A-3 with its EN 16931 XML embedded: the same bytes at every download',
        tags: ['invoices'],
        security: [{ session: [] }],
        params: routes.invoicePdf.params,
        response: { [routes.invoicePdf.status]: routes.invoicePdf.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id) || !(await isInvoiceOfUser(fastify.db, request.user!.id, id))) throw notFound('Invoice not found');
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

  fastify.get(
    '/pro-forma/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary:
          "The pro-forma (payment request, not an invoice) of the caller's reserved order: the balance owed, the shop's account, the RF reference, the due date and an EPC QR code",
        tags: ['invoices'],
        security: [{ session: [] }],
        params: routes.proFormaPdf.params,
        response: { [routes.proFormaPdf.status]: routes.proFormaPdf.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      // Another's order, an order not waiting for its balance, or none: the same 404.
      const proForma = isUuid(id) ? await loadProForma(fastify.db, request.user!.id, id) : undefined;
      if (!proForma) throw notFound('No balance is owed on this order');
      const content = await renderProFormaPdf(proForma);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${proFormaFileName(proForma)}"`)
        .header('cache-control', 'private, no-store')
        .send(content);
    },
  );
};

export default invoices;
