import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import { recordAudit } from '../../../../features/audit/audit-log.js';
import { listReconciliationAlerts, reconcileLedgers, resolveReconciliationAlert } from '../../../../features/ledger/reconciliation.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.reconciliation;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** The ledger's reconciliation: alerts listed, a run on demand, an alert resolved with a reason. */
const reconciliation: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/alerts',
    {
      config: { permission: 'ledger.read' },
      schema: {
        summary: "Differences between orders' ledgers and the provider's and the bank's records, newest first",
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody, ...denied },
      },
    },
    async (request) => ({ data: await listReconciliationAlerts(fastify.db, request.query.open ?? true) }),
  );

  fastify.post(
    '/run',
    {
      config: { permission: 'reconciliation.write', rateLimit: { max: 6, timeWindow: '1 minute' } },
      schema: {
        summary: 'Compares every recent order now (the daily job does the same); a difference found before is not raised again',
        tags: ['admin'],
        security: [{ session: [] }],
        response: { [routes.run.status]: routes.run.response, ...denied, 429: ErrorBody },
      },
    },
    async (request) => {
      const result = await reconcileLedgers(fastify.db, fastify.payments, request.log);
      const open = (await listReconciliationAlerts(fastify.db, true)).length;
      return { ...result, open };
    },
  );

  fastify.post(
    '/alerts/:id/resolve',
    {
      config: { permission: 'reconciliation.write' },
      schema: {
        summary: 'Resolves one alert with the reason the difference is settled (409 ALERT_RESOLVED the second time)',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.resolve.params,
        body: routes.resolve.body,
        response: { [routes.resolve.status]: routes.resolve.response, 400: ErrorBody, ...denied, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw notFound('Alert not found');
      const id = request.params.id.toLowerCase();
      const reason = request.body.reason.trim();
      await fastify.db.transaction().execute(async (trx) => {
        const { orderId } = await resolveReconciliationAlert(trx, { id, userId: request.user!.id, reason });
        await recordAudit(trx, {
          request,
          action: 'reconciliation.alert_resolved',
          target: { type: 'order', id: orderId },
          status: 200,
          after: { alertId: id, reason },
        });
      });
      const alert = (await listReconciliationAlerts(fastify.db, false)).find((row) => row.id === id);
      if (!alert) throw notFound('Alert not found');
      return alert;
    },
  );
};

export default reconciliation;
