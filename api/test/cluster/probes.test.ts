import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

describe('GET /api/live and GET /api/ready', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app?.close());

  it('is live and ready with its database, Redis not configured', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/live' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'not-configured', shuttingDown: false });
  });

  it('stays ready but says "degraded" when Redis does not answer: limits then count per replica', async () => {
    const withoutRedis = await buildTestApp({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const ready = await withoutRedis.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'degraded', database: 'ok', redis: 'unreachable' });
    } finally {
      await withoutRedis.close();
    }
  });

  it('is not ready without its database, yet still live: the orchestrator must not restart it for that', async () => {
    const broken = await buildTestApp();
    await broken.db.destroy();
    const ready = await broken.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe(String(broken.config.database.retryAfterSeconds));
    expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
    expect((await broken.inject({ method: 'GET', url: '/api/live' })).statusCode).toBe(200);
    await broken.close().catch(() => undefined);
  });
});
