import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { remotesManifest } from './remotes';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { PortInUseError, listen } from './serve';
import { createWebServer } from './server';
import { SHOP_ROUTES } from './test/shop-routes';
import { remotesEnv, serveRouteData } from './test/stand-in-remotes';

let distDir: string;
const started: FastifyInstance[] = [];

async function track(app: Promise<FastifyInstance>): Promise<FastifyInstance> {
  const instance = await app;
  started.push(instance);
  return instance;
}

beforeAll(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'web-server-test-'));
  await writeFile(join(distDir, 'index.html'), '<!doctype html><title>Boat shop</title><div id="root"></div>');
  await writeFile(join(distDir, 'remoteEntry.js'), 'var mf_catalog;');
  await writeFile(join(distDir, 'mf-manifest.json'), '{"name":"mf_catalog"}');
  await writeFile(join(distDir, 'main.3f9a1c2b.js'), `console.log(${JSON.stringify('x'.repeat(4096))});`);
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()));
});

afterAll(async () => {
  await rm(distDir, { recursive: true, force: true });
});

describe('remote server', () => {
  const remote = () => track(createWebServer({ role: 'remote', distDir, allowedOrigins: ['http://localhost:3000'] }));

  it("lets the shell's origin fetch the manifest, and no other origin", async () => {
    const app = await remote();

    const fromShell = await app.inject({ url: '/mf-manifest.json', headers: { origin: 'http://localhost:3000' } });
    const fromElsewhere = await app.inject({ url: '/mf-manifest.json', headers: { origin: 'http://evil.example' } });

    expect(fromShell.statusCode).toBe(200);
    expect(fromShell.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(fromElsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('makes browsers revalidate the manifest, the remote entry and html, and cache hashed chunks for good', async () => {
    const app = await remote();

    for (const url of ['/mf-manifest.json', '/remoteEntry.js', '/', '/index.html']) {
      expect((await app.inject({ url })).headers['cache-control'], url).toBe('no-cache');
    }
    expect((await app.inject({ url: '/main.3f9a1c2b.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves a file written after start, as a rebuilt release would be', async () => {
    const app = await remote();
    await writeFile(join(distDir, 'late.0123abcd.js'), 'console.log("new release");');

    const response = await app.inject({ url: '/late.0123abcd.js' });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('new release');
  });

  it('compresses with brotli or gzip as the browser asks', async () => {
    const app = await remote();

    const brotli = await app.inject({ url: '/main.3f9a1c2b.js', headers: { 'accept-encoding': 'br, gzip' } });
    const gzip = await app.inject({ url: '/main.3f9a1c2b.js', headers: { 'accept-encoding': 'gzip' } });

    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });
});

describe('shell server', () => {
  let api: FastifyInstance;
  let apiUrl: string;
  const seen: { cookie?: string; csrf?: string; forwardedHost?: string; body?: unknown }[] = [];

  beforeAll(async () => {
    api = Fastify();
    api.get('/api/auth/session', async (request, reply) => {
      seen.push({ cookie: request.headers.cookie, forwardedHost: request.headers['x-forwarded-host'] as string });
      return reply.header('set-cookie', ['session=abc; Path=/; HttpOnly; SameSite=Lax', 'csrf=xyz; Path=/']).send({ user: null });
    });
    api.post('/api/auth/login', async (request) => {
      seen.push({ csrf: request.headers['x-csrf-token'] as string, body: request.body });
      return { user: null };
    });
    // The stand-in API also serves the remotes' route data (remotesEnv below).
    serveRouteData(api);
    apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await api.close();
  });

  const shell = (env: Record<string, string | undefined> = {}) =>
    track(createWebServer({ role: 'shell', distDir, apiUrl, env: { ...remotesEnv(apiUrl), ...env } }));

  it('proxies /api to the API with cookies passing through in both directions', async () => {
    const app = await shell();

    const response = await app.inject({ url: '/api/auth/session', headers: { cookie: 'session=old', host: 'localhost:3000' } });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null });
    expect(response.headers['set-cookie']).toEqual(['session=abc; Path=/; HttpOnly; SameSite=Lax', 'csrf=xyz; Path=/']);
    expect(seen.at(-1)).toMatchObject({ cookie: 'session=old', forwardedHost: 'localhost:3000' });
  });

  it('passes JSON bodies and the CSRF header to the API', async () => {
    const app = await shell();

    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-csrf-token': 'xyz' },
      payload: { email: 'shopper@example.com', password: 'secret' },
    });

    expect(seen.at(-1)).toEqual({ csrf: 'xyz', body: { email: 'shopper@example.com', password: 'secret' } });
  });

  it("answers in the API's error shape when the API is down", async () => {
    const app = await track(createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: {} }));

    const response = await app.inject({ url: '/api/products' });

    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: { code: 'API_UNAVAILABLE', message: 'The shop is unavailable right now' } });
  });

  it('sends a page without its remotes data block when the remote never answers, instead of waiting', async () => {
    // mf_cart_checkout's route data is there, but its manifest never comes (a hung server).
    const hung = Fastify();
    serveRouteData(hung);
    const waiting: (() => void)[] = [];
    hung.get('/mf-cart-checkout/mf-manifest.json', (_request, reply) => {
      waiting.push(() => void reply.code(503).send());
    });
    const origin = await hung.listen({ port: 0, host: '127.0.0.1' });
    try {
      // The manifest fetch alone would wait 20 s: the page's deadline must not.
      const app = await shell({ ...remotesEnv(origin), HEAD_API_TIMEOUT_MS: '20000' });

      const response = await app.inject({ url: '/cart', headers: { accept: 'text/html' } });

      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.body).not.toContain('boatshop-page-data');
      expect(waiting.length).toBeGreaterThan(0);
    } finally {
      waiting.forEach((answer) => answer());
      await hung.close();
    }
  });

  it('answers every page 503 with Retry-After when it cannot tell the remotes at all (an unreadable REMOTES_MANIFEST)', async () => {
    const file = join(distDir, '..', `broken-remotes-${process.pid}.json`);
    await writeFile(file, '{ not json');
    try {
      const app = await shell({ REMOTES_MANIFEST: file });
      for (const url of ['/', '/nothing-here']) {
        const response = await app.inject({ url, headers: { accept: 'text/html' } });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['retry-after'], url).toBe('60');
        // No data block: the shell asks /remotes.json, whose failure it shows with Retry.
        expect(response.body, url).not.toContain('boatshop-page-data');
      }
      expect((await app.inject({ url: '/remotes.json' })).statusCode).toBe(500);
    } finally {
      await rm(file);
    }
  });

  it('answers deep links with index.html and missing files with 404', async () => {
    const app = await shell();

    const deepLink = await app.inject({ url: '/search/yachts?ref=home', headers: { accept: 'text/html' } });
    const missingChunk = await app.inject({ url: '/missing.0123abcd.js', headers: { accept: '*/*' } });
    const apiLookalike = await app.inject({ url: '/apix/nothing', headers: { accept: 'text/html' } });

    expect(deepLink.statusCode).toBe(200);
    expect(deepLink.body).toContain('<title>Yachts for sale | Boat shop</title>');
    expect(deepLink.body).toContain('<div id="root"></div>');
    expect(deepLink.headers['cache-control']).toBe('no-cache');
    expect(missingChunk.statusCode).toBe(404);
    // Still the shop's page (its router shows "not found"), now with the status saying so.
    expect(apiLookalike.statusCode).toBe(404);
    expect(apiLookalike.body).toContain('<div id="root"></div>');
  });

  it('serves /remotes.json from the default ports, from MF_*_URL origins, or from the REMOTES_MANIFEST file', async () => {
    const defaults = await (
      await track(createWebServer({ role: 'shell', distDir, apiUrl, env: { MF_CART_CHECKOUT_PORT: '5102' } }))
    ).inject({ url: '/remotes.json' });
    expect(defaults.headers['cache-control']).toBe('no-cache');
    expect(defaults.json().remotes).toEqual({
      mf_catalog: 'http://localhost:3001/mf-manifest.json',
      mf_cart_checkout: 'http://localhost:5102/mf-manifest.json',
      mf_account: 'http://localhost:3003/mf-manifest.json',
      mf_admin: 'http://localhost:3004/mf-manifest.json',
    });

    expect(await remotesManifest({ MF_CATALOG_URL: 'https://catalog.example/' })).toMatchObject({
      mf_catalog: 'https://catalog.example/mf-manifest.json',
    });

    const file = join(distDir, '..', `remotes-${process.pid}.json`);
    await writeFile(file, JSON.stringify({ mf_catalog: '/remotes/mf-catalog/mf-manifest.json' }));
    try {
      const fromFile = await (await shell({ REMOTES_MANIFEST: file })).inject({ url: '/remotes.json' });
      expect(fromFile.json().remotes).toEqual({ mf_catalog: '/remotes/mf-catalog/mf-manifest.json' });
    } finally {
      await rm(file);
    }
  });

  it('gives the shell a table it has accepted, in /remotes.json and in the page, and logs what it left out once', async () => {
    // mf_account's data also claims /CART, which mf_cart_checkout (earlier in the table) declares.
    const table: RouteTable = {
      ...SHOP_ROUTES,
      mf_account: [...SHOP_ROUTES.mf_account!, { path: '/CART', module: './Basket', access: 'public', layout: 'main' }],
    };
    const remotes = Fastify();
    serveRouteData(remotes, () => table);
    const origin = await remotes.listen({ port: 0, host: '127.0.0.1' });
    const logged: string[] = [];
    try {
      const app = await track(
        createWebServer({
          role: 'shell',
          distDir,
          apiUrl,
          env: remotesEnv(origin),
          logger: { level: 'warn', stream: { write: (line: string) => logged.push(line) } },
        }),
      );
      for (let request = 0; request < 3; request += 1) {
        expect((await app.inject({ url: '/remotes.json' })).json().routes).toEqual(SHOP_ROUTES);
      }
      const page = await app.inject({ url: '/cart', headers: { accept: 'text/html' } });
      const data = JSON.parse(/<script type="application\/json" id="boatshop-page-data">(.*?)<\/script>/s.exec(page.body)![1]!) as {
        routes: RouteTable;
      };
      expect(data.routes).toEqual(SHOP_ROUTES);
      expect(logged.filter((line) => line.includes('/CART collides with /cart of mf_cart_checkout'))).toHaveLength(1);
    } finally {
      await remotes.close();
    }
  });

  it('refuses to start without a build', async () => {
    await expect(createWebServer({ role: 'shell', distDir: join(distDir, 'nope'), apiUrl, env: {} })).rejects.toThrow(
      /build the app first/,
    );
  });
});

describe('listen', () => {
  it('names the taken port and the variable that moves it', async () => {
    const first = await track(createWebServer({ role: 'remote', distDir, allowedOrigins: [] }));
    const address = new URL(await first.listen({ port: 0, host: '127.0.0.1' }));
    const second = await track(createWebServer({ role: 'remote', distDir, allowedOrigins: [] }));

    const error = await listen(second, Number(address.port), '127.0.0.1', 'MF_CATALOG_PORT').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PortInUseError);
    expect((error as Error).message).toBe(
      `Port ${address.port} on 127.0.0.1 is already in use. Stop whatever runs there or choose another port with MF_CATALOG_PORT=<port>.`,
    );
  });
});
