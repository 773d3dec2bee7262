import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSitemapRoutes } from './sitemap';

// Sitemap files beyond the last: a crawler (or anyone) may ask for /sitemaps/products-N.xml for any
// N up to 9,999,999. Each must be a 404 answered from what the server already knows, not another
// pass over the products at the API.

function countingApi(total: number, fileSize: number) {
  const calls = { starts: 0, entries: 0 };
  const api = {
    async sitemapStarts(size: number) {
      calls.starts += 1;
      const files = Math.ceil(total / size);
      return { total, starts: Array.from({ length: files }, (_, index) => (index === 0 ? null : String(index * size))) };
    },
    async sitemapEntries(after: string | null, limit: number) {
      calls.entries += 1;
      const from = after === null ? 0 : Number(after);
      const ids = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, index) => `p-${from + index}`);
      return { data: ids.map((id) => ({ id, lastModified: '2026-11-26T00:00:00.000Z' })), cursor: null, isLastPage: true };
    },
    async sitemapBuilders() {
      return [];
    },
  };
  const app = Fastify();
  registerSitemapRoutes(app, { publicUrl: 'https://shop.test', api, fileSize });
  return { app, calls };
}

describe('shell server: product sitemap files', () => {
  it('answers files beyond the last with 404 from the cached file starts, without asking the API again', async () => {
    const { app, calls } = countingApi(25, 10);
    expect((await app.inject({ url: '/sitemaps/products-3.xml' })).statusCode).toBe(200);
    expect(calls).toEqual({ starts: 1, entries: 1 });

    for (let number = 4; number < 1_004; number += 1) {
      expect((await app.inject({ url: `/sitemaps/products-${number}.xml` })).statusCode).toBe(404);
    }
    expect((await app.inject({ url: '/sitemaps/products-9999999.xml' })).statusCode).toBe(404);
    expect(calls).toEqual({ starts: 1, entries: 1 });
    await app.close();
  });

  it('asks where the files start once for the index and every file', async () => {
    const { app, calls } = countingApi(25, 10);
    expect((await app.inject({ url: '/sitemap.xml' })).statusCode).toBe(200);
    for (const number of [1, 2, 3, 1]) expect((await app.inject({ url: `/sitemaps/products-${number}.xml` })).statusCode).toBe(200);
    expect(calls).toEqual({ starts: 1, entries: 3 });
    await app.close();
  });
});
