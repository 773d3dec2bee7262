import { Type, type Static } from '@sinclair/typebox';
import { CURSOR_MAX_LENGTH, SITEMAP_MAX_URLS } from '../constants.js';
import { withDefault } from './common.js';

// For machines: load balancers (/api/health), operators (/api/admin/jobs), the web server's
// sitemap (/api/products/sitemap).

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
});
export type Health = Static<typeof HealthSchema>;

export const QueueCountsSchema = Type.Object(
  { name: Type.String(), waiting: Type.Integer(), active: Type.Integer(), failed: Type.Integer(), completed: Type.Integer() },
  { title: 'QueueCounts' },
);
export type QueueCounts = Static<typeof QueueCountsSchema>;

export const JobCountsSchema = Type.Object({ queues: Type.Array(QueueCountsSchema) });
export type JobCounts = Static<typeof JobCountsSchema>;

export const SitemapQuerySchema = Type.Object({
  after: Type.Optional(Type.String({ maxLength: CURSOR_MAX_LENGTH, description: 'a cursor from /sitemap/pages or the previous page' })),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: SITEMAP_MAX_URLS }), SITEMAP_MAX_URLS),
});
export type SitemapQuery = Static<typeof SitemapQuerySchema>;

export const SitemapEntryPageSchema = Type.Object({
  data: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), lastModified: Type.String({ format: 'date-time' }) })),
  cursor: Type.Union([Type.String(), Type.Null()]),
  isLastPage: Type.Boolean(),
});
export type SitemapEntryPage = Static<typeof SitemapEntryPageSchema>;

export const SitemapPagesQuerySchema = Type.Object({
  size: withDefault(Type.Integer({ minimum: 1, maximum: SITEMAP_MAX_URLS }), SITEMAP_MAX_URLS),
});
export type SitemapPagesQuery = Static<typeof SitemapPagesQuerySchema>;

export const SitemapPagesSchema = Type.Object({ total: Type.Integer(), starts: Type.Array(Type.Union([Type.String(), Type.Null()])) });
export type SitemapPages = Static<typeof SitemapPagesSchema>;
