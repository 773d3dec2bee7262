import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebServer } from './server';
import { remotesEnv, serveRouteData } from './test/stand-in-remotes';

// A dist folder can end up holding more than the build meant to publish: an .env copied from
// public/, an editor's or a deploy tool's dot-folder. None of it is part of the shop.
describe('files a front-end server never serves', () => {
  let distDir: string;
  let api: FastifyInstance;
  let apiUrl: string;

  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'web-server-static-'));
    await writeFile(join(distDir, 'index.html'), '<!doctype html><title>Boat shop</title>');
    await writeFile(join(distDir, 'main.3f9a1c2b.js'), 'console.log(1);');
    await writeFile(join(distDir, '.env'), 'JWT_SECRET=do-not-leak');
    await mkdir(join(distDir, '.git'));
    await writeFile(join(distDir, '.git', 'config'), '[remote "origin"] url = git@internal:shop.git');
    await mkdir(join(distDir, 'assets'));
    await writeFile(join(distDir, 'assets', '.htpasswd'), 'admin:secret');
    api = Fastify();
    // The remotes' route data too, so the shell knows which paths are pages (a 404 for the rest).
    serveRouteData(api);
    apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await api.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const servers = () => [
    createWebServer({ role: 'remote', distDir, allowedOrigins: [] }),
    createWebServer({ role: 'shell', distDir, apiUrl, env: remotesEnv(apiUrl) }),
  ];

  it.each(['/.env', '/.git/config', '/assets/.htpasswd', '/%2eenv'])(
    'never hands out the dotfile %s, on the shell or on a remote',
    async (url) => {
      for (const pending of servers()) {
        const app = await pending;
        try {
          const response = await app.inject({ url, headers: { accept: '*/*' } });
          expect(response.body, url).not.toMatch(/do-not-leak|internal:shop|admin:secret/);
          // A 404, or for an extension-less path the app's own page (a deep link), nothing else.
          if (response.statusCode !== 404) expect(response.body, url).toContain('<title>Boat shop</title>');
        } finally {
          await app.close();
        }
      }
    },
  );

  it('answers a page navigation with the page, without looking in dist for a file of that name', async () => {
    await writeFile(join(distDir, 'boats'), 'a stray file without an extension');
    const shell = await createWebServer({ role: 'shell', distDir, apiUrl, env: remotesEnv(apiUrl) });
    try {
      const page = await shell.inject({ url: '/boats', headers: { accept: 'text/html' } });
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).not.toContain('a stray file');
      // Asked for as a file, not as a page, it is still served.
      const file = await shell.inject({ url: '/boats', headers: { accept: 'application/octet-stream' } });
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe('a stray file without an extension');
    } finally {
      await shell.close();
      await rm(join(distDir, 'boats'));
    }
  });

  it('still serves the build itself', async () => {
    for (const pending of servers()) {
      const app = await pending;
      try {
        expect((await app.inject({ url: '/main.3f9a1c2b.js' })).statusCode).toBe(200);
        expect((await app.inject({ url: '/', headers: { accept: 'text/html' } })).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    }
  });
});

describe('how long a front-end server waits for a request', () => {
  it('gives up on a request that has not fully arrived within 30 seconds, on the shell and on a remote', async () => {
    const distDir = await mkdtemp(join(tmpdir(), 'web-server-timeout-'));
    await writeFile(join(distDir, 'index.html'), '<!doctype html>');
    try {
      for (const app of [
        await createWebServer({ role: 'remote', distDir, allowedOrigins: [] }),
        await createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: {} }),
      ]) {
        await app.ready();
        // Fastify turns Node's timeout off (0): a client trickling a body would hold the socket for ever.
        expect(app.server.requestTimeout).toBe(30_000);
        await app.close();
      }
    } finally {
      await rm(distDir, { recursive: true, force: true });
    }
  });
});

describe('the shell page of a rebuilt shell', () => {
  it('is served at once, though the shell does not read index.html for every page', async () => {
    const distDir = await mkdtemp(join(tmpdir(), 'web-server-rebuilt-'));
    const template = (build: string) => `<!doctype html><title>Boat shop</title><meta name="build" content="${build}">`;
    await writeFile(join(distDir, 'index.html'), template('first'));
    const app = await createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: {} });
    const page = async () => (await app.inject({ url: '/', headers: { accept: 'text/html' } })).body;
    try {
      expect(await page()).toContain('content="first"');
      expect(await page()).toContain('content="first"');
      await writeFile(join(distDir, 'index.html'), template('build-2'));
      expect(await page()).toContain('content="build-2"');
      // The same size: told apart by the time of change.
      await writeFile(join(distDir, 'index.html'), template('build-3'));
      await utimes(join(distDir, 'index.html'), new Date(), new Date(Date.now() + 5_000));
      expect(await page()).toContain('content="build-3"');
    } finally {
      await app.close();
      await rm(distDir, { recursive: true, force: true });
    }
  });
});
