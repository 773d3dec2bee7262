import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listSitemapEntries, listSitemapPageStarts } from '../../../../features/products/sitemap.repository.js';

const routes = ROUTES.products;

/**
 * Per client address, as the other public routes that cost a query are limited. The shell's server,
 * their one regular caller, keeps each answer five minutes: a sitemap of a million products asks
 * about twenty files per replica and period.
 */
const SITEMAP_RATE_LIMIT = { rateLimit: { max: 120, timeWindow: '1 minute' } };

/**
 * What the shell's server builds /sitemap.xml from (packages/web-server/src/sitemap.ts): where
 * each sitemap file starts, and the product ids of one file. Public data only (ids and dates).
 */
const sitemap: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      config: SITEMAP_RATE_LIMIT,
      schema: {
        summary: 'Product ids and their last change, oldest first, keyset-paged (for sitemaps)',
        tags: ['products'],
        querystring: routes.sitemap.query,
        response: { [routes.sitemap.status]: routes.sitemap.response, 400: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => listSitemapEntries(fastify.db, request.query),
  );

  fastify.get(
    '/pages',
    {
      config: SITEMAP_RATE_LIMIT,
      schema: {
        summary: 'Where each sitemap file of `size` products starts (pass `after` to /sitemap)',
        tags: ['products'],
        querystring: routes.sitemapPages.query,
        response: { [routes.sitemapPages.status]: routes.sitemapPages.response, 400: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => listSitemapPageStarts(fastify.db, request.query.size),
  );
};

export default sitemap;
