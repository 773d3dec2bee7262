import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';

const routes = ROUTES.admin.jobs;

/** The job queue as operators see it. No permission declared: owners only (the folder's autohooks.ts). */
const adminJobs: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Jobs per queue: waiting (incl. retries), active, failed, completed',
        tags: ['admin'],
        security: [{ session: [] }],
        response: { [routes.list.status]: routes.list.response, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => ({ queues: await fastify.jobs.counts() }),
  );
};

export default adminJobs;
