import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { ApiError } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis (REDIS_URL), or null: each replica then counts its limits alone. */
    redis: Redis | null;
  }
}

/**
 * Off by default: routes opt in with `config: { rateLimit: { max, timeWindow } }`.
 * With REDIS_URL the counts live in Redis, so every replica shares them; without it each process
 * counts alone in memory (the embedded default: `npm start` needs no Redis).
 */
export default fp(
  async (fastify) => {
    const { redisUrl } = fastify.config;
    // As the plugin's README advises: fail fast rather than queue, so a request never waits on Redis.
    const redis = redisUrl ? new Redis(redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
    if (redis) {
      // ioredis reconnects on its own; an unhandled 'error' event would end the process.
      redis.on('error', (err: Error) => fastify.log.warn({ err }, 'Redis (rate limits) unavailable'));
      fastify.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
    }
    fastify.decorate('redis', redis);
    await fastify.register(rateLimit, {
      global: false,
      ...(redis
        ? {
            redis,
            nameSpace: 'boatshop-rate-limit-',
            // Redis down must not take sign-in down: the per-account throttle in the database
            // still holds, only the coarse per-IP limit is skipped until Redis is back.
            skipOnError: true,
          }
        : {}),
      errorResponseBuilder: (_request, context) =>
        new ApiError(context.statusCode, 'RATE_LIMITED', `Too many requests, try again in ${context.after}`),
    });
  },
  { name: 'rate-limit' },
);
