import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordBankTransfer } from '../../../../features/deposits/bank-transfers.js';
import { findAdminOrder } from '../../../../features/orders/orders.admin-repository.js';

const route = ROUTES.admin.bankTransfers.record;

/** Bank transfers received for reserved orders (a deposit order's balance). The admin folder's autohooks.ts admits the roles holding each route's permission. */
const bankTransfers: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.post(
    '/',
    {
      config: { permission: 'reconciliation.write' },
      schema: {
        summary: 'Record a bank transfer received for the order its RF reference names; the total reached marks it paid',
        description:
          'Idempotent on (reference, bankReference): the same statement line twice records once. ' +
          '404 UNKNOWN_REFERENCE, 422 OVERPAYMENT (more than still due), 409 NOT_AWAITING_TRANSFER (not reserved), ' +
          '409 BANK_REFERENCE_USED (the bank reference belongs to another payment), 400 INVALID_REFERENCE (check digits).',
        tags: ['admin'],
        security: [{ session: [] }],
        body: route.body,
        response: {
          [route.status]: route.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request) => {
      const orderId = await recordBankTransfer(fastify.db, { ...request.body, actor: { type: 'admin', id: request.user!.id } });
      return (await findAdminOrder(fastify.db, orderId))!;
    },
  );
};

export default bankTransfers;
