import { ROUTES, type RoutePath } from '@boatshop/contract';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, routesOf, type TestApp } from '../helpers/build-test-app.js';

// The contract's route table (packages/contract/src/routes.ts), which the typed client is built
// from, against the routes the API really registers: the same method and path, the same request
// schemas, the same success status and answer schema. A route of the API that a script may call
// and the table lacks fails too, so the client cannot fall behind.

interface TableRoute extends RoutePath {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  status: number;
  response: unknown;
}

function leaves(node: unknown, name: string[] = []): [string, TableRoute][] {
  if (typeof node === 'object' && node !== null && 'method' in node && 'path' in node) return [[name.join('.'), node as TableRoute]];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, child]) => leaves(child, [...name, key]));
}

/** The schema as JSON (what Ajv and the OpenAPI document see); TypeBox's symbol keys left out. */
const asJson = (schema: unknown) => (schema === undefined ? undefined : JSON.parse(JSON.stringify(schema)));

/** Routes no script of ours calls with the client: the provider's webhook, the popup's HTML, static files, the docs. */
const NOT_IN_THE_TABLE = [
  /^POST \/api\/payments\/webhook$/,
  /^GET \/api\/auth\/oidc\//,
  /^GET \/api\/images\//,
  /^GET \/api\/pictures\//,
  /^GET \/api\/docs/,
];

let app: TestApp;
const registered = new Map<string, RouteOptions>();

beforeAll(async () => {
  app = await buildTestApp();
  for (const route of routesOf(app)) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const url = route.url.length > 1 ? route.url.replace(/\/$/, '') : route.url;
      registered.set(`${method} ${url}`, route);
    }
  }
});

afterAll(() => app.close());

describe("the contract's route table", () => {
  const table = leaves(ROUTES);

  it('lists every route a front end calls', () => {
    expect(table.length).toBeGreaterThanOrEqual(35);
  });

  it.each(table)('%s is the route the API registers, with the same schemas', (_name, route) => {
    const registeredRoute = registered.get(`${route.method} /api${route.path}`);
    expect(registeredRoute, `${route.method} /api${route.path} is not a route of the API`).toBeDefined();
    const schema = (registeredRoute!.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown> };

    expect(asJson(schema.params)).toEqual(asJson(route.params));
    expect(asJson(schema.querystring)).toEqual(asJson(route.query));
    expect(asJson(schema.body)).toEqual(asJson(route.body));
    const successes = Object.keys(schema.response ?? {}).filter((status) => Number(status) < 300);
    expect(successes).toEqual([String(route.status)]);
    expect(asJson(schema.response?.[route.status])).toEqual(asJson(route.response));
  });

  it('renders the OpenAPI document from the same schemas, every route of the table in it', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(document.openapi).toMatch(/^3\./);
    for (const [name, route] of table) {
      const path = `/api${route.path.replace(/:(\w+)/g, '{$1}')}`;
      // A folder's index route is registered as `/api/products/`.
      const operation = (document.paths[path] ?? document.paths[`${path}/`])?.[route.method.toLowerCase()];
      expect(operation, `${name}: ${route.method} ${path}`).toBeDefined();
      expect(operation!.responses[String(route.status)], `${name}: ${route.status}`).toBeDefined();
    }
  });

  it('leaves out only routes no script calls', () => {
    const inTable = new Set(table.map(([, route]) => `${route.method} /api${route.path}`));
    const missing = [...registered.keys()].filter(
      (key) => key.startsWith('GET /api') || key.startsWith('POST /api') || key.startsWith('PUT /api') || key.startsWith('DELETE /api'),
    );
    expect(missing.filter((key) => !inTable.has(key) && !NOT_IN_THE_TABLE.some((pattern) => pattern.test(key)))).toEqual([]);
  });
});
