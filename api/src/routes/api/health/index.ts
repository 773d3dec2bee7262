import { HealthSchema as Health } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';

/** For load balancers: 503 when the database does not answer, so traffic moves to a healthy replica. */
const health: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: "Liveness, database check and the job queue's waiting and failed jobs",
        tags: ['health'],
        response: { 200: Health, 503: Health },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(fastify.db);
        // The queue's counts are extra: a failure to count must not take the replica out of service.
        const queues = await fastify.jobs.counts().catch((err: unknown) => {
          request.log.warn({ err }, 'health check: job counts unavailable');
          return [];
        });
        const jobs = {
          waiting: queues.reduce((sum, queue) => sum + queue.waiting, 0),
          failed: queues.reduce((sum, queue) => sum + queue.failed, 0),
        };
        return { status: 'ok' as const, database: 'ok' as const, jobs };
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
