import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../../../../lib/errors.js';

const QueueCountsSchema = Type.Object(
  { name: Type.String(), waiting: Type.Integer(), active: Type.Integer(), failed: Type.Integer(), completed: Type.Integer() },
  { title: 'QueueCounts' },
);

/** The job queue as operators see it. The folder's autohooks.ts admits admins only. */
const adminJobs: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Jobs per queue: waiting (incl. retries), active, failed, completed',
        tags: ['admin'],
        security: [{ session: [] }],
        response: { 200: Type.Object({ queues: Type.Array(QueueCountsSchema) }), 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => ({ queues: await fastify.jobs.counts() }),
  );
};

export default adminJobs;
