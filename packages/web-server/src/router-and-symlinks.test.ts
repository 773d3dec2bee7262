import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebServer } from './server';

// The front ends' servers: the router's own refusals answer in the shop's error shape (not
// Fastify's, which echoes the path), and a symlink in dist never serves a file from outside it.
describe('router refusals and symlinks', () => {
  let distDir: string;
  let outsideDir: string;
  let api: FastifyInstance;
  let apiUrl: string;

  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'web-server-links-'));
    outsideDir = await mkdtemp(join(tmpdir(), 'web-server-outside-'));
    await writeFile(join(distDir, 'index.html'), '<!doctype html><title>Boat shop</title>');
    await writeFile(join(distDir, 'main.3f9a1c2b.js'), 'console.log(1);');
    await writeFile(join(outsideDir, 'secret.js'), 'const key = "outside-secret";');
    await symlink(join(outsideDir, 'secret.js'), join(distDir, 'leak.js'));
    await symlink(outsideDir, join(distDir, 'outside'));
    await symlink(join(distDir, 'main.3f9a1c2b.js'), join(distDir, 'alias.js'));
    api = Fastify();
    apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await api.close();
    await rm(distDir, { recursive: true, force: true });
    await rm(outsideDir, { recursive: true, force: true });
  });

  const servers = () => [
    createWebServer({ role: 'remote', distDir, allowedOrigins: [] }),
    createWebServer({ role: 'shell', distDir, apiUrl, env: {} }),
  ];

  it('answers a malformed address with the usual error body, without echoing the path', async () => {
    for (const pending of servers()) {
      const app = await pending;
      try {
        const response = await app.inject({ url: '/%E0%A4%A-secret-path', headers: { accept: '*/*' } });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: { code: 'BAD_URL', message: 'The address of this request is not valid' } });
        expect(response.body).not.toContain('secret-path');
      } finally {
        await app.close();
      }
    }
  });

  it.each(['/leak.js', '/outside/secret.js'])('never serves %s, a symlink out of dist', async (url) => {
    for (const pending of servers()) {
      const app = await pending;
      try {
        const response = await app.inject({ url, headers: { accept: '*/*' } });
        expect(response.statusCode, url).toBe(404);
        expect(response.body).not.toContain('outside-secret');
      } finally {
        await app.close();
      }
    }
  });

  it('still serves a symlink that stays inside dist', async () => {
    for (const pending of servers()) {
      const app = await pending;
      try {
        const response = await app.inject({ url: '/alias.js', headers: { accept: '*/*' } });
        expect(response.statusCode).toBe(200);
        expect(response.body).toContain('console.log(1)');
      } finally {
        await app.close();
      }
    }
  });
});
