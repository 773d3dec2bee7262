import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import { ApiError } from '../../lib/errors.js';

/**
 * Load shedding: when the event loop lags (LOAD_SHEDDING_*: mean delay, optionally utilization),
 * new requests get a quick 503 with Retry-After instead of joining a queue that makes every
 * answer late. A load balancer moves traffic to a healthier replica meanwhile.
 */
export default fp(
  async (fastify) => {
    const { maxEventLoopDelayMs, maxEventLoopUtilization, retryAfterSeconds } = fastify.config.loadShedding;
    await fastify.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      maxEventLoopUtilization,
      // The last sample's utilization, not the average since the process started.
      eventLoopUtilizationMode: 'interval',
      // Through the root error handler, so the answer has the API's one error body.
      pressureHandler: (request, reply, type, value) => {
        request.log.warn({ type, value }, 'under pressure: request shed with 503');
        reply.header('retry-after', String(retryAfterSeconds));
        return Promise.reject(new ApiError(503, 'OVERLOADED', 'The shop is very busy right now. Please try again in a few seconds.'));
      },
    });
  },
  { name: 'under-pressure' },
);
