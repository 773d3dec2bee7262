import type { FastifyInstance } from 'fastify';

/**
 * Every route under routes/api/admin/ (sub-folders too: autoload cascades this hook) is for
 * administrators only, checked on the server on every request. onRequest rather than
 * preHandler: a stranger gets 401/403 before the body is parsed or validated, so never a
 * validation message about a form they may not use.
 */
export default async function adminOnly(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRequest', fastify.requireAdmin);
}
