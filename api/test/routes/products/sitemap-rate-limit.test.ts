import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';

// The sitemap routes are public and each answer costs a pass over the products: like the other
// public routes that cost a query, they are limited per client address.

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
  await resetDatabase(app);
});
afterAll(() => app?.close());

const from = (address: string, url: string) => app.inject({ url, headers: { 'x-forwarded-for': address } });

describe('GET /api/products/sitemap and /sitemap/pages, rate limited', () => {
  for (const url of ['/api/products/sitemap?limit=10', '/api/products/sitemap/pages?size=10']) {
    it(`answers 429 RATE_LIMITED after 120 requests a minute from one address (${url}), others unaffected`, async () => {
      const statuses = await Promise.all(Array.from({ length: 120 }, () => from('10.9.8.7', url).then((response) => response.statusCode)));
      expect(statuses.every((status) => status === 200)).toBe(true);
      const limited = await from('10.9.8.7', url);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect((await from('10.9.8.6', url)).statusCode).toBe(200);
    });
  }
});
