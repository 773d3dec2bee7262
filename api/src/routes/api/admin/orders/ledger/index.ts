import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { recordBankRefund } from '../../../../../features/ledger/bank-refunds.js';
import { ledgerLines, orderMoney } from '../../../../../features/ledger/ledger.js';
import { notFound } from '../../../../../lib/errors.js';

const routes = ROUTES.admin.ledger;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** Routes under /api/admin/orders/:id, next to the order's own routes. */
export const prefixOverride = '/api/admin/orders';

/** An order's money ledger, and the bank refunds admins record. admin/autohooks.ts admits admins only. */
const orderLedger: FastifyPluginAsyncTypebox = async (fastify) => {
  function checkedId(id: string): string {
    if (!isUuid(id)) throw notFound('Order not found');
    return id.toLowerCase();
  }

  async function answer(orderId: string) {
    const money = await orderMoney(fastify.db, orderId);
    if (!money) throw notFound('Order not found');
    const entries = await ledgerLines(fastify.db, orderId);
    return { orderId, money, entries: entries.map((line) => ({ ...line, at: line.at.toISOString() })) };
  }

  fastify.get(
    '/:id/ledger',
    {
      config: { permission: 'ledger.read' },
      schema: {
        summary: "The order's money ledger, oldest first, with the running balance and what is received, refunded, at risk and owed",
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, ...denied, 404: ErrorBody },
      },
    },
    async (request) => answer(checkedId(request.params.id)),
  );

  fastify.post(
    '/:id/bank-refund',
    {
      config: { permission: 'orders.refund' },
      schema: {
        summary: 'Records money sent back to the buyer by bank transfer (amount, day, bank reference)',
        description:
          'Never more than the order holds (422 REFUND_TOO_LARGE). The same bank reference again records nothing more; ' +
          'for another order or amount it is 409 BANK_REFERENCE_USED.',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.bankRefund.params,
        body: routes.bankRefund.body,
        response: {
          [routes.bankRefund.status]: routes.bankRefund.response,
          400: ErrorBody,
          ...denied,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
        },
      },
    },
    async (request) => {
      const id = checkedId(request.params.id);
      await recordBankRefund(fastify.db, {
        orderId: id,
        amountCents: request.body.amountCents,
        refundedOn: request.body.refundedOn,
        bankReference: request.body.bankReference,
        reason: request.body.reason?.trim() || null,
        actor: { type: 'admin', id: request.user!.id },
      });
      return answer(id);
    },
  );
};

export default orderLedger;
