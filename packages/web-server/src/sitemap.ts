import type { FastifyInstance } from 'fastify';
import { EnumChangefreq, SitemapIndexStream, SitemapStream, streamToPromise, type IndexItem, type SitemapItemLoose } from 'sitemap';
import type { ApiReads } from './api-reads';
import { CATEGORIES } from './pages';
import { TtlCache } from './ttl-cache';

/** The most URLs one sitemap file may list (sitemaps.org); tests pass a smaller size. */
export const SITEMAP_FILE_SIZE = 50_000;
const XML_TTL_MS = 5 * 60_000;
const XML_HEADERS = { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=300' };

async function xmlOf(stream: SitemapStream | SitemapIndexStream, items: (SitemapItemLoose | IndexItem)[]): Promise<string> {
  const done = streamToPromise(stream);
  for (const item of items) stream.write(item);
  stream.end();
  return (await done).toString('utf8');
}

/**
 * /robots.txt, /sitemap.xml (an index) and the files it lists: /sitemaps/pages.xml (home, browse,
 * the category pages, the builder pages) and /sitemaps/products-<n>.xml, each at most `fileSize` products, oldest
 * first, keyset-paged through the API. Each file is the same on every replica (it depends only
 * on the rows), and is kept five minutes.
 */
export function registerSitemapRoutes(
  app: FastifyInstance,
  options: { publicUrl: string; api: Pick<ApiReads, 'sitemapStarts' | 'sitemapEntries' | 'sitemapBuilders'>; fileSize?: number },
): void {
  const { publicUrl, api } = options;
  const fileSize = options.fileSize ?? SITEMAP_FILE_SIZE;
  const cache = new TtlCache<string>({ ttlMs: XML_TTL_MS, maxEntries: 100 });
  // Where each file starts (one pass over the products at the API) is kept as long as the files, in
  // its own entry: a file number beyond the last is a 404 from it, with no further request to the
  // API and no cache entry of its own, however many numbers a crawler or an attacker tries.
  const startsCache = new TtlCache<{ total: number; starts: (string | null)[] }>({ ttlMs: XML_TTL_MS, maxEntries: 1 });
  const starts = () => startsCache.getOrLoad('starts', () => api.sitemapStarts(fileSize));

  app.get('/robots.txt', async (_request, reply) => {
    // Nothing disallowed: the private pages say noindex themselves (a crawler must fetch them to
    // see it), and the /api data the pages render from must stay fetchable for rendering crawlers.
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`User-agent: *\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n`);
  });

  app.get('/sitemap.xml', async (request, reply) => {
    try {
      const xml = await cache.getOrLoad('index', async () => {
        const { starts: files } = await starts();
        const items: IndexItem[] = [{ url: `${publicUrl}/sitemaps/pages.xml` }];
        files.forEach((_start, index) => items.push({ url: `${publicUrl}/sitemaps/products-${index + 1}.xml` }));
        return xmlOf(new SitemapIndexStream(), items);
      });
      return await reply.headers(XML_HEADERS).send(xml);
    } catch (error) {
      request.log.error(error, 'cannot build /sitemap.xml');
      return reply
        .code(503)
        .header('retry-after', '60')
        .send({ error: { code: 'API_UNAVAILABLE', message: 'The sitemap is unavailable right now' } });
    }
  });

  app.get('/sitemaps/pages.xml', async (request, reply) => {
    try {
      const xml = await cache.getOrLoad('pages', async () =>
        xmlOf(new SitemapStream({ hostname: publicUrl }), [
          { url: '/', changefreq: EnumChangefreq.DAILY, priority: 1 },
          { url: '/search', changefreq: EnumChangefreq.DAILY },
          ...CATEGORIES.map((category) => ({ url: `/search/${category.slug}`, changefreq: EnumChangefreq.DAILY })),
          // The builder pages, at the canonical URL their head names (docs/adr/0049).
          ...(await api.sitemapBuilders()).map((builder) => ({
            url: `/search?${new URLSearchParams({ builder })}`,
            changefreq: EnumChangefreq.DAILY,
          })),
        ]),
      );
      return await reply.headers(XML_HEADERS).send(xml);
    } catch (error) {
      request.log.error(error, 'cannot build /sitemaps/pages.xml');
      return reply
        .code(503)
        .header('retry-after', '60')
        .send({ error: { code: 'API_UNAVAILABLE', message: 'The sitemap is unavailable right now' } });
    }
  });

  app.get<{ Params: { file: string } }>('/sitemaps/:file', async (request, reply) => {
    const match = /^products-([1-9]\d{0,6})\.xml$/.exec(request.params.file);
    if (!match) return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    const number = Number(match[1]);
    try {
      const { starts: files } = await starts();
      if (number > files.length) return await reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
      const xml = await cache.getOrLoad(`products-${number}`, async () => {
        const page = await api.sitemapEntries(files[number - 1] ?? null, fileSize);
        return xmlOf(
          new SitemapStream({ hostname: publicUrl }),
          page.data.map((entry) => ({ url: `/product/${entry.id}`, lastmod: entry.lastModified })),
        );
      });
      return await reply.headers(XML_HEADERS).send(xml);
    } catch (error) {
      request.log.error(error, 'cannot build a product sitemap');
      return reply
        .code(503)
        .header('retry-after', '60')
        .send({ error: { code: 'API_UNAVAILABLE', message: 'The sitemap is unavailable right now' } });
    }
  });
}
