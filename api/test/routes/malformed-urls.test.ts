import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createUserWithSession } from '../helpers/users.js';

// Fastify's router answers a malformed percent-encoding, or a path parameter longer than it
// accepts, before any route or error handler runs: by default in a shape of its own that echoes
// the whole path back. Clients of this API read one error body only.
describe('URLs the router itself refuses', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app?.close());

  it('a malformed percent-encoding answers 400 with the usual error body', async () => {
    for (const url of ['/api/products/%E0%A4%A', '/api/orders/%zz', '/api/images/%C0']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: { code: 'BAD_URL', message: 'The address of this request is not valid' } });
    }
  });

  it('an over-long id answers 414 with the usual error body, without echoing it', async () => {
    const admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const id = 'a'.repeat(100_000);
    for (const request of [
      { method: 'GET' as const, url: `/api/products/${id}` },
      { method: 'DELETE' as const, url: `/api/admin/products/${id}`, headers: admin.headers },
    ]) {
      const response = await app.inject(request);
      expect(response.statusCode).toBe(414);
      expect(response.json()).toEqual({ error: { code: 'URI_TOO_LONG', message: 'A part of this address is too long' } });
      expect(response.body.length).toBeLessThan(200);
    }
  });

  it('an unknown route names its path only, shortened, never its query string', async () => {
    const withToken = await app.inject({ url: '/api/auth/verify-typo?token=SECRET-TOKEN-123' });
    expect(withToken.statusCode).toBe(404);
    expect(withToken.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Route GET /api/auth/verify-typo not found' } });

    const long = await app.inject({ url: `/api/${'x'.repeat(50_000)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json().error.code).toBe('NOT_FOUND');
    expect(long.body.length).toBeLessThan(400);
  });
});
