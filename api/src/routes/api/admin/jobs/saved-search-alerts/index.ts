import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import { sendSavedSearchAlerts } from '../../../../../features/keep/saved-search-alerts.js';

const route = ROUTES.keep.runAlerts;

/**
 * Runs today's saved-search alerts now, as the daily job does (owners only: no permission
 * declared, the admin folder's autohooks.ts). Safe to repeat: a search handled today is skipped.
 */
const runAlerts: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.post(
    '/',
    {
      schema: {
        summary: "Run today's saved-search alerts now (each search still gets one e-mail a day at most)",
        tags: ['admin'],
        security: [{ session: [] }],
        response: { [route.status]: route.response, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => {
      const sent = await sendSavedSearchAlerts(fastify.db, {
        publicUrl: fastify.config.publicUrl,
        secret: fastify.config.alerts.unsubscribeSecret,
      });
      // The outbox sweep hands the new e-mails to the queue at once rather than at its next tick.
      if (sent > 0) await fastify.jobs.dispatchOutbox();
      return { sent };
    },
  );
};

export default runAlerts;
