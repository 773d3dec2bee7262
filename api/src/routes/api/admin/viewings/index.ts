import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toViewing, viewingsOfDay } from '../../../../features/viewings/viewings.repository.js';

const routes = ROUTES.admin.viewings;

/** The day's viewings at a glance, every marina, each on its own clock. */
const adminViewings: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      config: { permission: 'leads.read' },
      schema: {
        tags: ['admin', 'viewings'],
        security: [{ session: [] }],
        summary: "The booked viewings of one calendar day (each marina's own day), earliest first",
        querystring: routes.day.query,
        response: { [routes.day.status]: routes.day.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const rows = await viewingsOfDay(fastify.db, request.query.day);
      return {
        data: await Promise.all(
          rows.map(async (row) => ({ ...(await toViewing(fastify.db, row)), buyerName: row.display_name, email: row.email })),
        ),
      };
    },
  );
};

export default adminViewings;
