import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createUserWithSession } from '../helpers/users.js';

describe('GET /api/health', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app?.close());

  it('reports the database as reachable and nothing more: it is public', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it("keeps the job queue's counts for admins (GET /api/admin/jobs)", async () => {
    expect((await app.inject({ method: 'GET', url: '/api/admin/jobs' })).statusCode).toBe(401);
    const shopper = await createUserWithSession(app);
    expect((await app.inject({ method: 'GET', url: '/api/admin/jobs', headers: shopper.headers })).statusCode).toBe(403);
    const admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const response = await app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queues: expect.any(Array) });
  });

  it('answers 503 once the database is gone, so a load balancer stops routing here', async () => {
    const broken = await buildTestApp();
    await broken.db.destroy();
    const response = await broken.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(broken.config.database.retryAfterSeconds));
    expect(response.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
    await broken.close().catch(() => undefined);
  });
});
