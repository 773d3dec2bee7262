import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../helpers/users.js';

// Query coercion turns "Infinity" (and numbers too large for a double) into Infinity, which the
// schema's `integer` and `maximum` let through: every such query is a 400, never a 500.

let app: TestApp;
let admin: UserWithSession;

beforeAll(async () => {
  app = await buildTestApp();
  await resetDatabase(app);
  admin = await createUserWithSession(app, { roles: ['user', 'admin'] });
});
afterAll(() => app?.close());

const ROUTES: [string, boolean][] = [
  ['/api/products?limit=', false],
  ['/api/admin/products?limit=', true],
  ['/api/admin/orders?limit=', true],
  ['/api/products/sitemap?limit=', false],
  ['/api/products/sitemap/pages?size=', false],
];

describe('non-finite numbers in queries', () => {
  for (const [url, asAdmin] of ROUTES) {
    it(`answers 400 VALIDATION for ${url}Infinity, -Infinity and 1e400`, async () => {
      for (const value of ['Infinity', '-Infinity', '1e400']) {
        const response = await app.inject({ method: 'GET', url: `${url}${value}`, headers: asAdmin ? admin.headers : {} });
        expect(response.statusCode, `${url}${value}: ${response.body}`).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/finite|must be/) });
      }
    });
  }

  it('still accepts a finite limit', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/products?limit=3' });
    expect(response.statusCode).toBe(200);
  });
});
