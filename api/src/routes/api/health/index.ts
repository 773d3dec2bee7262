import { ErrorBodySchema, HealthSchema as Health } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';

/**
 * For load balancers: 503 when the database does not answer, so traffic moves to a healthy replica.
 * Public, so it says no more than that; the job queue's counts are for admins (GET /api/admin/jobs).
 */
const health: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Liveness and database check (public: nothing else)',
        tags: ['health'],
        // 503: this probe's own body, or the error body when load shedding answers before it runs.
        response: { 200: Health, 503: Type.Union([Health, ErrorBodySchema]) },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(fastify.db);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (err) {
        request.log.error({ err }, 'health check: database unreachable');
        return reply
          .code(503)
          .header('retry-after', String(fastify.config.database.retryAfterSeconds))
          .send({ status: 'unavailable', database: 'unreachable' });
      }
    },
  );
};

export default health;
