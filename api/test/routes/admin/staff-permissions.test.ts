import { PERMISSIONS, ROLE_PERMISSIONS, STAFF_ROLES, type Permission } from '@boatshop/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, routesOf, type TestApp } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';

// Every admin route against every staff role, called directly (no page in between): a route
// answers 403 exactly when the role's permissions (the contract's ROLE_PERMISSIONS) lack the one
// the route declares, and a route that declares none is for owners alone.

let app: TestApp;
const people = new Map<string, UserWithSession>();

interface AdminRoute {
  method: string;
  url: string;
  permission: Permission | undefined;
}
let adminRoutes: AdminRoute[] = [];

beforeAll(async () => {
  app = await buildTestApp();
  for (const role of [...STAFF_ROLES, 'user'] as const) people.set(role, await createUserWithSession(app, { roles: ['user', role] }));
  adminRoutes = routesOf(app)
    .filter((route) => route.url.startsWith('/api/admin'))
    .flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => ({
          method,
          // a well-formed id that matches nothing: past the gate the route answers 404 or 400, never 403
          url: route.url.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000'),
          permission: (route.config as { permission?: Permission } | undefined)?.permission,
        })),
    );
});
afterAll(() => app.close());

describe('permissions on every admin route', () => {
  it('finds the admin routes, and each declared permission is one of the vocabulary', () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(15);
    for (const route of adminRoutes) if (route.permission) expect(PERMISSIONS).toContain(route.permission);
  });

  it('refuses a shopper (403) everywhere, and a visitor (401; a write without the csrf token is 403 before that)', async () => {
    for (const route of adminRoutes) {
      const shopper = await app.inject({
        method: route.method as 'GET',
        url: route.url,
        headers: people.get('user')!.headers,
        payload: {},
      });
      expect(shopper.statusCode, `${route.method} ${route.url}`).toBe(403);
      const visitor = await app.inject({ method: route.method as 'GET', url: route.url });
      expect(visitor.statusCode, `${route.method} ${route.url}`).toBe(route.method === 'GET' ? 401 : 403);
    }
  });

  it.each(STAFF_ROLES)('lets the %s through exactly where the role table allows', async (role) => {
    for (const route of adminRoutes) {
      const allowed = role === 'owner' || (route.permission !== undefined && ROLE_PERMISSIONS[role].includes(route.permission));
      const response = await app.inject({ method: route.method as 'GET', url: route.url, headers: people.get(role)!.headers, payload: {} });
      if (allowed) expect(response.statusCode, `${role}: ${route.method} ${route.url} ${response.body}`).not.toBe(403);
      else {
        expect(response.statusCode, `${role}: ${route.method} ${route.url}`).toBe(403);
        expect(response.json().error.code).toBe('FORBIDDEN');
      }
    }
  });

  it('keeps a route without a declared permission for owners (GET /api/admin/jobs)', async () => {
    const jobs = adminRoutes.find((route) => route.url === '/api/admin/jobs');
    expect(jobs?.permission).toBeUndefined();
    for (const role of ['sales', 'accountant', 'editor']) {
      const response = await app.inject({ method: 'GET', url: '/api/admin/jobs', headers: people.get(role)!.headers });
      expect(response.statusCode).toBe(403);
    }
    expect((await app.inject({ method: 'GET', url: '/api/admin/jobs', headers: people.get('owner')!.headers })).statusCode).not.toBe(403);
  });

  it('refuses an editor a refund called straight at the API', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/orders/00000000-0000-4000-8000-000000000000/refund',
      headers: people.get('editor')!.headers,
      payload: { amountCents: 100, idempotencyKey: 'editor-tries-1' },
    });
    expect(response.statusCode).toBe(403);
  });
});
