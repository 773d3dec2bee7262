import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, hasPermission, ROUTES } from '@boatshop/contract';
import { auditCsv, listAudit } from '../../../../features/audit/audit.repository.js';
import { assertSteppedUp } from '../../../../features/staff/step-up.js';
import { forbidden } from '../../../../lib/errors.js';

const routes = ROUTES.admin.audit;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** The audit log, read-only: owners and accountants browse, filter and export it. */
const adminAudit: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      config: { permission: 'audit.read' },
      schema: {
        summary: 'Admin actions, newest first, filtered by actor, action and days, a keyset page at a time',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody, ...denied },
      },
    },
    async (request) => listAudit(fastify.db, request.query),
  );

  fastify.get(
    '/export',
    {
      config: { permission: 'exports.run' },
      schema: {
        summary: 'The filtered audit log as CSV (oldest first), for who may read it and run exports',
        tags: ['admin'],
        security: [{ session: [] }],
        querystring: routes.export.query,
        response: { [routes.export.status]: routes.export.response, 400: ErrorBody, ...denied },
      },
    },
    async (request, reply) => {
      if (!hasPermission(request.user!.roles, 'audit.read')) throw forbidden('Your role may not read the audit log');
      await assertSteppedUp(fastify.db, request);
      const csv = await auditCsv(fastify.db, request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
        .send(csv);
    },
  );
};

export default adminAudit;
