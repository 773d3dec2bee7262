import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebServer } from './server';

let distDir: string;
let api: FastifyInstance;
let apiUrl: string;
const started: FastifyInstance[] = [];

async function track(app: Promise<FastifyInstance>): Promise<FastifyInstance> {
  const instance = await app;
  started.push(instance);
  return instance;
}

/** "a b; c d" → { a: ['b'], c: ['d'] } */
function directives(header: string | string[] | number | undefined): Record<string, string[]> {
  expect(typeof header).toBe('string');
  return Object.fromEntries(
    (header as string).split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

beforeAll(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'web-server-headers-'));
  await writeFile(join(distDir, 'index.html'), '<!doctype html><title>Boat shop</title><div id="root"></div>');
  await writeFile(join(distDir, 'remoteEntry.js'), 'var mf_catalog;');
  api = Fastify();
  api.get('/api/auth/oidc/callback', async (_request, reply) =>
    reply.header('content-security-policy', "default-src 'none'; script-src 'sha256-abc'").type('text/html').send('<p>done</p>'),
  );
  apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()));
});

afterAll(async () => {
  await api.close();
  await rm(distDir, { recursive: true, force: true });
});

const ENV = {
  MF_CATALOG_URL: 'https://catalog.boats.example',
  MF_CART_CHECKOUT_URL: 'https://cart.boats.example/',
  MF_ACCOUNT_URL: 'https://account.boats.example',
  MF_ADMIN_URL: 'https://admin.boats.example',
};

describe('security headers of the shell', () => {
  const shell = (env: Record<string, string | undefined>) => track(createWebServer({ role: 'shell', distDir, apiUrl, env }));

  it("allows exactly the shop's origin, the remotes' origins and Stripe, and no framing", async () => {
    const app = await shell({ ...ENV, NODE_ENV: 'production' });
    for (const url of ['/', '/product/42', '/remotes.json']) {
      const { headers } = await app.inject({ url, headers: { accept: 'text/html' } });
      const csp = directives(headers['content-security-policy']);
      const remotes = Object.values(ENV).map((origin) => origin.replace(/\/$/, ''));
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'", ...remotes, 'https://js.stripe.com']);
      expect(csp['style-src']).toEqual(["'self'", ...remotes]);
      expect(csp['connect-src']).toEqual(["'self'", ...remotes, 'https://api.stripe.com']);
      expect(csp['frame-src']).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(Object.values(csp).flat()).not.toContain("'unsafe-inline'");
      expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('allows the local Stripe stand-in outside production only', async () => {
    const dev = await shell({ ...ENV, STRIPE_BROWSER_API_BASE: 'http://127.0.0.1:4999/' });
    expect(directives((await dev.inject({ url: '/' })).headers['content-security-policy'])['connect-src']).toContain(
      'http://127.0.0.1:4999',
    );
    const byPort = await shell({ ...ENV, DEV_STRIPE_PORT: '4888' });
    expect(directives((await byPort.inject({ url: '/' })).headers['content-security-policy'])['connect-src']).toContain(
      'http://127.0.0.1:4888',
    );
    const production = await shell({ ...ENV, NODE_ENV: 'production', STRIPE_BROWSER_API_BASE: 'http://127.0.0.1:4999' });
    expect(directives((await production.inject({ url: '/' })).headers['content-security-policy'])['connect-src']).not.toContain(
      'http://127.0.0.1:4999',
    );
  });

  it('takes the remotes from the manifest file; relative entries are the shop itself', async () => {
    const manifest = join(distDir, 'remotes.test.json');
    await writeFile(
      manifest,
      JSON.stringify({ mf_catalog: '/remotes/mf-catalog/mf-manifest.json', mf_admin: 'https://admin.cdn.example/mf-manifest.json' }),
    );
    const app = await shell({ REMOTES_MANIFEST: manifest, NODE_ENV: 'production' });
    const csp = directives((await app.inject({ url: '/' })).headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'", 'https://admin.cdn.example', 'https://js.stripe.com']);
  });

  it('adds the origins of CSP_EXTRA_ORIGINS to those of the manifest, and refuses anything but origins', async () => {
    const app = await shell({ ...ENV, NODE_ENV: 'production', CSP_EXTRA_ORIGINS: 'http://localhost:4501, https://cdn.example' });
    const csp = directives((await app.inject({ url: '/' })).headers['content-security-policy']);
    expect(csp['script-src']).toEqual(expect.arrayContaining(['http://localhost:4501', 'https://cdn.example']));
    expect(csp['connect-src']).toEqual(expect.arrayContaining(['http://localhost:4501', 'https://cdn.example']));
    expect(csp['frame-src']).not.toContain('https://cdn.example');
    for (const bad of ['*', 'https://cdn.example/path', 'cdn.example', "'unsafe-inline'"]) {
      await expect(createWebServer({ role: 'shell', distDir, apiUrl, env: { CSP_EXTRA_ORIGINS: bad } })).rejects.toThrow(
        /CSP_EXTRA_ORIGINS/,
      );
    }
  });

  it('sends HSTS only over https', async () => {
    const app = await track(createWebServer({ role: 'shell', distDir, apiUrl, env: ENV }));
    // From an address that is not a trusted proxy (TRUST_PROXY, default loopback): the header is not believed.
    const claimed = await app.inject({ url: '/', remoteAddress: '203.0.113.5', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    // From the proxy in front of it, which ended TLS: it is.
    const proxied = await app.inject({ url: '/', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers['strict-transport-security']).toMatch(/max-age=/);
  });

  it("leaves the API's answers their own headers (the OIDC popup's policy and opener)", async () => {
    const app = await shell(ENV);
    const { headers } = await app.inject({ url: '/api/auth/oidc/callback' });
    expect(headers['content-security-policy']).toBe("default-src 'none'; script-src 'sha256-abc'");
    expect(headers['cross-origin-opener-policy']).toBeUndefined();
  });
});

describe('security headers of a remote', () => {
  it('lets the shell load its chunks cross-origin and frames nothing', async () => {
    const app = await track(createWebServer({ role: 'remote', distDir, allowedOrigins: ['http://localhost:3000'] }));
    const { headers } = await app.inject({ url: '/remoteEntry.js', headers: { origin: 'http://localhost:3000' } });
    expect(headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(directives(headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
