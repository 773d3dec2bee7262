import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import { listBuilders, searchProducts } from '../../../../features/search/search.repository.js';

const route = ROUTES.find.search;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Faceted search for shoppers. Answers come from the per-process catalogue cache while it is in
 * use (keyed by the normalised query, emptied whenever a product changes), so the facet counts of
 * a popular choice are computed once per change, not once per visitor.
 */
const search: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Boats matching the chosen facets, a page at a time, with every facet’s counts',
        tags: ['products'],
        querystring: route.query,
        response: { [route.status]: route.response, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const key = JSON.stringify(['search', Object.entries(query).sort(([a], [b]) => a.localeCompare(b))]);
      const json = await fastify.catalogCache.getOrLoad(
        key,
        async () => reply.serialize(await searchProducts(fastify.db, query, { facetCells: fastify.config.searchFacetCells })) as string,
      );
      return reply.type(JSON_TYPE).send(json as never);
    },
  );

  fastify.get(
    '/builders',
    {
      schema: {
        summary: 'Every builder with boats listed and their number (the builder pages of the sitemap)',
        tags: ['products'],
        response: { [ROUTES.find.builders.status]: ROUTES.find.builders.response },
      },
    },
    async () => ({ data: await listBuilders(fastify.db) }),
  );
};

export default search;
