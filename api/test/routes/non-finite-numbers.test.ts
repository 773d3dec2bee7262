import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, resetDatabase, routesOf, type TestApp } from '../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../helpers/users.js';

// Query coercion turns "Infinity" (and numbers too large for a double) into Infinity, which the
// schema's `integer` and `maximum` let through; a JSON body's 1e400 parses to Infinity too. Every
// such request is a 400, never a 500 and never a query with Infinity in it.

let app: TestApp;
let owner: UserWithSession;

beforeAll(async () => {
  app = await buildTestApp({ authRateLimitPerMinute: 0 });
  await resetDatabase(app);
  owner = await createUserWithSession(app, { roles: ['user', 'owner'] });
});
afterAll(() => app?.close());

const NON_FINITE = ['Infinity', '-Infinity', '+Infinity', '1e400', '-1e400'];

const ROUTES: [string, boolean][] = [
  ['/api/products?limit=', false],
  ['/api/admin/products?limit=', true],
  ['/api/admin/orders?limit=', true],
  ['/api/products/sitemap?limit=', false],
  ['/api/products/sitemap/pages?size=', false],
];

type Schema = { type?: string | string[]; anyOf?: Schema[]; properties?: Record<string, Schema>; required?: string[] };

const isNumeric = (schema: Schema): boolean =>
  [schema.type].flat().some((type) => type === 'number' || type === 'integer') || (schema.anyOf ?? []).some(isNumeric);

/** Every route's numeric query parameters, from the schemas the app registered: a route added later is covered too. */
function numericQueryParameters(routes: readonly RouteOptions[]) {
  return routes.flatMap((route) => {
    const query = (route.schema?.querystring ?? {}) as Schema;
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    return Object.entries(query.properties ?? {})
      .filter(([, schema]) => isNumeric(schema))
      .flatMap(([name]) =>
        methods.map((method) => ({ method, url: route.url, name, alone: (query.required ?? []).every((r) => r === name) })),
      );
  });
}

describe('non-finite numbers', () => {
  for (const [url, asAdmin] of ROUTES) {
    it(`answers 400 VALIDATION for ${url}Infinity, -Infinity and 1e400`, async () => {
      for (const value of ['Infinity', '-Infinity', '1e400']) {
        const response = await app.inject({ method: 'GET', url: `${url}${value}`, headers: asAdmin ? owner.headers : {} });
        expect(response.statusCode, `${url}${value}: ${response.body}`).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/finite|must be/) });
      }
    });
  }

  it('answers 400 for a non-finite value of every numeric query parameter of every route', async () => {
    const parameters = numericQueryParameters(routesOf(app));
    expect(parameters.map((p) => `${p.url}?${p.name}`)).toEqual(
      expect.arrayContaining(['/api/products/?limit', '/api/products/search/?lengthMin', '/api/products/sitemap/pages?size']),
    );
    const wrong: string[] = [];
    for (const { method, url, name, alone } of parameters) {
      for (const value of NON_FINITE) {
        const path = url.replace(/:[A-Za-z_]+/g, '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b');
        const response = await app.inject({ method, url: path, query: { [name]: value }, headers: owner.headers });
        const message = String(response.json<{ error?: { message?: string } }>().error?.message ?? '');
        // A route with other required parameters may refuse their absence first: still a 400.
        if (response.statusCode !== 400 || (alone && !/finite|must be/.test(message))) {
          wrong.push(`${method} ${path}?${name}=${value} → ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses a JSON body's 1e400 (Infinity once parsed) with 400", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload:
        '{"name":"Sturdy sloop","priceCents":1e400,"category":"yachts","thumbnailUrl":"/api/images/aldren-22-daysailer.svg","descriptionHtml":"<p>A boat.</p>"}',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION');
  });

  it('still accepts a finite limit', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/products?limit=3' });
    expect(response.statusCode).toBe(200);
  });
});
