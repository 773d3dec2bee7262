import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, productionProblems } from '../../src/config.js';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';

const TOKEN = 'metrics-token-for-this-test-only-0123456789';

describe('GET /api/metrics', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ cluster: { shutdownGraceMs: 10_000, metricsToken: TOKEN } });
    // On PostgreSQL the worker's database holds what the files before this one left (unsent mail).
    await resetDatabase(app);
  });
  afterAll(() => app?.close());

  const scrape = (token?: string) =>
    app.inject({ method: 'GET', url: '/api/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('refuses a scrape without the token, or with another one', async () => {
    expect((await scrape()).statusCode).toBe(401);
    const wrong = await scrape(`${TOKEN}x`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'A valid metrics token is required' } });
  });

  it('counts requests per route pattern (not per URL), with latency, errors and the backlog gauges', async () => {
    await app.inject({ method: 'GET', url: '/api/products' });
    await app.inject({ method: 'GET', url: '/api/products' });
    await app.inject({ method: 'GET', url: '/api/products/00000000-0000-4000-8000-000000000000' });
    await app.inject({ method: 'GET', url: '/api/no-such-thing/never-a-label-here' });
    const response = await scrape(TOKEN);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain('http_requests_total{method="GET",route="/api/products",status="200"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="/api/products/:id",status="404"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).not.toContain('never-a-label-here');
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/products"\} 2/);
    expect(text).toContain('outbox_backlog{measure="messages"} 0');
    expect(text).toContain(`db_pool_max_connections ${app.config.database.poolSize}`);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts a 5xx as an error of its route', async () => {
    const broken = await buildTestApp({ cluster: { shutdownGraceMs: 10_000, metricsToken: TOKEN } });
    await broken.db.destroy();
    // 503 on PostgreSQL (connection refused), 500 on a destroyed PGlite.
    const status = (await broken.inject({ method: 'GET', url: '/api/products' })).statusCode;
    expect(status).toBeGreaterThanOrEqual(500);
    const text = (await broken.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(text).toContain(`http_request_errors_total{method="GET",route="/api/products",status="${status}"} 1`);
    await broken.close().catch(() => undefined);
  });
});

describe('GET /api/metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const app = await buildTestApp({ cluster: { shutdownGraceMs: 10_000, metricsToken: null } });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer anything' } });
      expect(response.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('METRICS_TOKEN in production', () => {
  it('must not be short', () => {
    expect(productionProblems({ METRICS_TOKEN: 'short' })).toContain('METRICS_TOKEN must be at least 24 characters');
    expect(productionProblems({ METRICS_TOKEN: TOKEN }).some((problem) => problem.startsWith('METRICS_TOKEN'))).toBe(false);
  });

  it('is read from the environment, with the shutdown deadline', () => {
    const config = loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: TOKEN, SHUTDOWN_GRACE_MS: '2500' });
    expect(config.cluster).toEqual({ metricsToken: TOKEN, shutdownGraceMs: 2500 });
  });
});
