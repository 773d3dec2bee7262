import type { FastifyInstance } from 'fastify';
import { checkRoutePermission } from '../../../features/staff/permissions.js';

/**
 * Every route under routes/api/admin/ (sub-folders too: autoload cascades this hook) is for
 * staff whose role grants the route's declared `config.permission` (owners only when it declares
 * none), checked on the server on every request. onRequest rather than preHandler: a stranger
 * gets 401/403 before the body is parsed or validated, so never a validation message about a
 * form they may not use.
 */
export default async function staffOnly(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', async (request) => checkRoutePermission(request));
}
