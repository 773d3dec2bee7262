import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { Type } from '@sinclair/typebox';
import { cancelOrder, refundOrder } from '../../../../features/orders/order-refunds.js';
import { transitionOrder, type Actor } from '../../../../features/orders/order-state.js';
import { findAdminOrder, listAdminOrders } from '../../../../features/orders/orders.admin-repository.js';
import { assertMayRefund } from '../../../../features/staff/permissions.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.orders;
const denied = { 401: ErrorBody, 403: ErrorBody };
const actionErrors = { 400: ErrorBody, ...denied, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody, 502: ErrorBody, 503: ErrorBody };

const blankToNull = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

/** The shop's orders as administrators run them. The admin folder's autohooks.ts admits the roles holding each route's permission. */
const adminOrders: FastifyPluginAsyncTypebox = async (fastify) => {
  const adminOf = (request: { user: { id: string } | null }): Actor => ({ type: 'admin', id: request.user!.id });

  async function answer(id: string) {
    const order = await findAdminOrder(fastify.db, id);
    if (!order) throw notFound('Order not found');
    return order;
  }

  function checkedId(id: string): string {
    if (!isUuid(id)) throw notFound('Order not found');
    return id.toLowerCase();
  }

  fastify.get(
    '/',
    {
      config: { permission: 'orders.read' },
      schema: {
        summary:
          'Orders, newest first, a keyset page at a time (unpaid attempts only when the status filter names them; overdue=true: reserved past their due date)',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody, ...denied },
      },
    },
    async (request) => listAdminOrders(fastify.db, request.query),
  );

  fastify.get(
    '/:id',
    {
      config: { permission: 'orders.read' },
      schema: {
        summary: 'One order with items, addresses, payments, refunds, events and the actions its state allows',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, ...denied, 404: ErrorBody },
      },
    },
    async (request) => answer(checkedId(request.params.id)),
  );

  fastify.post(
    '/:id/ship',
    {
      config: { permission: 'orders.write' },
      schema: {
        summary: 'Handed to the buyer or a carrier (optional carrier and tracking number)',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.ship.params,
        body: routes.ship.body,
        response: { [routes.ship.status]: routes.ship.response, ...actionErrors },
      },
    },
    async (request) => {
      const id = checkedId(request.params.id);
      const carrier = blankToNull(request.body.carrier);
      const trackingNumber = blankToNull(request.body.trackingNumber);
      const note = [carrier && `Carrier: ${carrier}`, trackingNumber && `tracking number: ${trackingNumber}`].filter(Boolean).join(', ');
      await fastify.db.transaction().execute((trx) =>
        transitionOrder(trx, {
          orderId: id,
          to: 'shipped',
          actor: adminOf(request),
          note: note || null,
          changes: { carrier, tracking_number: trackingNumber, shipped_at: new Date() },
        }),
      );
      return answer(id);
    },
  );

  fastify.post(
    '/:id/deliver',
    {
      config: { permission: 'orders.write' },
      schema: {
        summary: 'The buyer has the boat',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.deliver.params,
        // Optional here: a request without a body is as good as `{}`.
        body: Type.Optional(routes.deliver.body),
        response: { [routes.deliver.status]: routes.deliver.response, ...actionErrors },
      },
    },
    async (request) => {
      const id = checkedId(request.params.id);
      await fastify.db
        .transaction()
        .execute((trx) =>
          transitionOrder(trx, { orderId: id, to: 'delivered', actor: adminOf(request), changes: { delivered_at: new Date() } }),
        );
      return answer(id);
    },
  );

  fastify.post(
    '/:id/cancel',
    {
      config: { permission: 'orders.write' },
      schema: {
        summary: 'Cancel before shipping; a paid order is refunded in full first, an unpaid one has its payment cancelled',
        description:
          "A reserved order (deposit paid) needs deposit: 'refund' (to the card) or 'keep' (400 DEPOSIT_CHOICE_REQUIRED); the choice and " +
          'the reason are recorded in the event. Money received by bank transfer cannot go back through the card: 422 REFUND_BY_BANK_TRANSFER.',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.cancel.params,
        body: routes.cancel.body,
        response: { [routes.cancel.status]: routes.cancel.response, ...actionErrors },
      },
    },
    async (request) => {
      const id = checkedId(request.params.id);
      const { refundableCents } = await answer(id);
      await assertMayRefund(fastify.db, request, request.body.deposit === 'keep' ? 0 : refundableCents, fastify.config.people);
      await cancelOrder(fastify.db, fastify.payments, request.log, {
        orderId: id,
        reason: blankToNull(request.body.reason),
        actor: adminOf(request),
        deposit: request.body.deposit,
      });
      return answer(id);
    },
  );

  fastify.post(
    '/:id/refund',
    {
      config: { permission: 'orders.refund' },
      schema: {
        summary: 'Refund part or all of what was paid, through the payment provider',
        description:
          'Never more than paid minus refunded (422 REFUND_TOO_LARGE). The idempotency key makes a double click or a retry refund once.',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.refund.params,
        body: routes.refund.body,
        response: { [routes.refund.status]: routes.refund.response, ...actionErrors },
      },
    },
    async (request) => {
      const id = checkedId(request.params.id);
      await assertMayRefund(fastify.db, request, request.body.amountCents, fastify.config.people);
      await refundOrder(fastify.db, fastify.payments, request.log, {
        orderId: id,
        amountCents: request.body.amountCents,
        reason: blankToNull(request.body.reason),
        idempotencyKey: request.body.idempotencyKey,
        actor: adminOf(request),
      });
      return answer(id);
    },
  );
};

export default adminOrders;
