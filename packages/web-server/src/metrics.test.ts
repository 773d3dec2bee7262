import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore } from '@boatshop/release-registry';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerShellMetrics } from './metrics';
import { createWebServer } from './server';

const TOKEN = 'shell-metrics-token-for-this-test-0123';
let dir: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shell-metrics-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Boat shop</title><div id="root"></div>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const scrape = (app: FastifyInstance, token?: string) =>
  app.inject({ url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("the shell's /metrics", () => {
  it('is no route at all without METRICS_TOKEN', async () => {
    const app = await createWebServer({ role: 'shell', distDir: dir, apiUrl: 'http://127.0.0.1:1', env: {} });
    apps.push(app);
    const response = await scrape(app, 'anything');
    expect(response.body).not.toContain('http_requests_total');
  });

  it('wants the token, and counts requests per route pattern with the proxy errors', async () => {
    // Nothing listens on port 1: the proxy answers 502.
    const app = await createWebServer({ role: 'shell', distDir: dir, apiUrl: 'http://127.0.0.1:1', env: { METRICS_TOKEN: TOKEN } });
    apps.push(app);
    expect((await scrape(app)).statusCode).toBe(401);
    expect((await scrape(app, 'wrong')).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/products/no-such-boat-in-any-label' })).statusCode).toBe(502);
    const response = await scrape(app, TOKEN);
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/http_request_errors_total\{method="GET",route="\/api\/\*",status="502"\} 1/);
    expect(response.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/\*"\} 1/);
    expect(response.body).not.toContain('no-such-boat-in-any-label');
  });

  it("reports the canary's page loads and failures as every replica wrote them to the registry", async () => {
    const registryDir = join(dir, 'registry');
    const store = new FileRegistryStore(registryDir);
    await store.writeCounts('production', 'shell-a', { 'mf-catalog': { '1.2.0-abc': { served: 40, failures: 1 } } });
    await store.writeCounts('production', 'shell-b', { 'mf-catalog': { '1.2.0-abc': { served: 60, failures: 3 } } });
    const app = Fastify();
    apps.push(app);
    await registerShellMetrics(app, { METRICS_TOKEN: TOKEN, REMOTES_REGISTRY: registryDir });
    const text = (await scrape(app, TOKEN)).body;
    expect(text).toContain('remote_page_loads{remote="mf-catalog",release="1.2.0-abc"} 100');
    expect(text).toContain('remote_failures{remote="mf-catalog",release="1.2.0-abc"} 4');
  });
});
