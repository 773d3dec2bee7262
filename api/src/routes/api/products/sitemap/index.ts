import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { listSitemapEntries, listSitemapPageStarts, SITEMAP_MAX_URLS } from '../../../../features/products/sitemap.repository.js';
import { ErrorBody } from '../../../../lib/errors.js';

/**
 * What the shell's server builds /sitemap.xml from (packages/web-server/src/sitemap.ts): where
 * each sitemap file starts, and the product ids of one file. Public data only (ids and dates).
 */
const sitemap: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      schema: {
        summary: 'Product ids and their last change, oldest first, keyset-paged (for sitemaps)',
        tags: ['products'],
        querystring: Type.Object({
          after: Type.Optional(Type.String({ maxLength: 300, description: 'a cursor from /sitemap/pages or the previous page' })),
          limit: Type.Integer({ minimum: 1, maximum: SITEMAP_MAX_URLS, default: SITEMAP_MAX_URLS }),
        }),
        response: {
          200: Type.Object({
            data: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), lastModified: Type.String({ format: 'date-time' }) })),
            cursor: Type.Union([Type.String(), Type.Null()]),
            isLastPage: Type.Boolean(),
          }),
          400: ErrorBody,
        },
      },
    },
    async (request) => listSitemapEntries(fastify.db, request.query),
  );

  fastify.get(
    '/pages',
    {
      schema: {
        summary: 'Where each sitemap file of `size` products starts (pass `after` to /sitemap)',
        tags: ['products'],
        querystring: Type.Object({
          size: Type.Integer({ minimum: 1, maximum: SITEMAP_MAX_URLS, default: SITEMAP_MAX_URLS }),
        }),
        response: {
          200: Type.Object({ total: Type.Integer(), starts: Type.Array(Type.Union([Type.String(), Type.Null()])) }),
          400: ErrorBody,
        },
      },
    },
    async (request) => listSitemapPageStarts(fastify.db, request.query.size),
  );
};

export default sitemap;
