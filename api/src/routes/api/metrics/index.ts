import { MetricsSchema } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../../lib/errors.js';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Prometheus scrapes this with `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the
 * route answers 404 as if it did not exist; the nginx in front refuses /api/metrics from outside.
 */
const metrics: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Prometheus metrics (Bearer METRICS_TOKEN)',
        tags: ['health'],
        response: { 200: MetricsSchema },
      },
    },
    async (request, reply) => {
      const token = fastify.config.cluster.metricsToken;
      if (!token) throw new ApiError(404, 'NOT_FOUND', 'Route GET /api/metrics not found');
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!sameSecret(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new ApiError(401, 'UNAUTHORIZED', 'A valid metrics token is required');
      }
      const text = await fastify.metrics.metrics();
      return reply.type(fastify.metrics.contentType).send(text);
    },
  );
};

export default metrics;
