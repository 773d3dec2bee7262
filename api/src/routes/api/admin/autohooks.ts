import type { FastifyInstance } from 'fastify';
import { auditAdminRequest } from '../../../features/audit/audit-hook.js';
import { checkRoutePermission } from '../../../features/staff/permissions.js';

/**
 * Every route under routes/api/admin/ (sub-folders too: autoload cascades these hooks):
 * - is for staff whose role grants the route's declared `config.permission` (owners only when it
 *   declares none), checked on the server on every request. onRequest rather than preHandler: a
 *   stranger gets 401/403 before the body is parsed or validated, so never a validation message
 *   about a form they may not use;
 * - leaves a row in the audit log when it changes (or tries to change) something.
 */
export default async function staffOnly(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', async (request) => checkRoutePermission(request));
  fastify.addHook('onSend', async (request, reply, payload) => {
    await auditAdminRequest(fastify.db, request, reply);
    return payload;
  });
}
