import { ErrorBodySchema, ReadySchema, type Ready } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';

/** A probe's own bound: an orchestrator's probe times out after about a second. */
const CHECK_TIMEOUT_MS = 800;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Readiness, for the load balancer and the orchestrator: 503 while this replica cannot serve
 * (its database does not answer, or it is shutting down), so traffic goes to the others. Redis
 * down is reported but leaves the replica ready: the rate limits then count per replica and
 * sign-in keeps its per-account throttle in the database, whereas taking every replica out of
 * rotation at once would take the whole shop down.
 */
const ready: FastifyPluginAsyncTypebox = async (fastify) => {
  let shuttingDown = false;
  fastify.addHook('preClose', async () => {
    shuttingDown = true;
  });

  fastify.get(
    '/',
    {
      schema: {
        summary: 'Readiness: database, Redis, and not shutting down (public: nothing else)',
        tags: ['health'],
        // 503: this probe's own body, or the error body when load shedding answers before it runs.
        response: { 200: ReadySchema, 503: Type.Union([ReadySchema, ErrorBodySchema]) },
      },
    },
    async (request, reply) => {
      const [database, redis] = await Promise.all([
        within(sql`select 1`.execute(fastify.db), CHECK_TIMEOUT_MS).then(
          () => 'ok' as const,
          (err: unknown) => {
            request.log.warn({ err }, 'readiness: database unreachable');
            return 'unreachable' as const;
          },
        ),
        fastify.redis
          ? within(fastify.redis.ping(), CHECK_TIMEOUT_MS).then(
              () => 'ok' as const,
              (err: unknown) => {
                request.log.warn({ err }, 'readiness: Redis unreachable');
                return 'unreachable' as const;
              },
            )
          : ('not-configured' as const),
      ]);
      const body: Ready = {
        status: shuttingDown || database !== 'ok' ? 'unavailable' : redis === 'unreachable' ? 'degraded' : 'ready',
        database,
        redis,
        shuttingDown,
      };
      if (body.status !== 'unavailable') return body;
      return reply.code(503).header('retry-after', String(fastify.config.database.retryAfterSeconds)).send(body);
    },
  );
};

export default ready;
