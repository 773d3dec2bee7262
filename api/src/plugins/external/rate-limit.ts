import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { ApiError } from '../../lib/errors.js';

/**
 * Off by default: routes opt in with `config: { rateLimit: { max, timeWindow } }`.
 * The store is in-process, so with several replicas each counts alone; a shared store
 * (Redis) is the step up when that matters.
 */
export default fp(
  async (fastify) => {
    await fastify.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) =>
        new ApiError(context.statusCode, 'RATE_LIMITED', `Too many requests, try again in ${context.after}`),
    });
  },
  { name: 'rate-limit' },
);
