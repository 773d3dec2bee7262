import { Writable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';

// Logs are read by more people, and kept longer, than the data they describe: no secret that
// travels in a URL or a header may land in them.
describe('what the API logs', () => {
  let server: FastifyInstance;
  let lines: string[] = [];

  beforeAll(async () => {
    const config: Config = {
      ...loadConfig({ ...process.env, NODE_ENV: 'test' }),
      logLevel: 'info',
      pgliteDir: 'memory://',
      seedDemoData: false,
      catalogCache: { ttlMs: 0, maxEntries: 10 },
      loadShedding: { maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, retryAfterSeconds: 10 },
    };
    const options = serverOptions(config);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    server = Fastify({ ...options, logger: { ...(options.logger as object), stream } }).withTypeProvider<TypeBoxTypeProvider>();
    await server.register(fp(app), { config });
    await server.register(
      fp(async (instance) => {
        instance.get('/test/boom', async () => {
          throw new Error('boom');
        });
      }),
    );
    await server.ready();
  });
  beforeEach(() => {
    lines = [];
  });
  afterAll(() => server?.close());

  it('logs no authorization code or state from the sign-in callback URL', async () => {
    await server.inject({ url: '/api/auth/oidc/callback?code=SECRET-CODE-123&state=SECRET-STATE-456' });
    const log = lines.join('');
    expect(log).toContain('/api/auth/oidc/callback');
    expect(log).not.toContain('SECRET-CODE-123');
    expect(log).not.toContain('SECRET-STATE-456');
  });

  it('logs no token from a URL, also in the error log of a failed request', async () => {
    await server.inject({ url: '/test/boom?token=SECRET-TOKEN-789&page=2' });
    const log = lines.join('');
    expect(log).toContain('request failed');
    expect(log).not.toContain('SECRET-TOKEN-789');
    // The harmless parameters stay, so the log still says what was asked.
    expect(log).toContain('page=2');
  });

  it('keeps search words and cursors, which an operator needs to follow a request', async () => {
    await server.inject({ url: '/api/products?q=contessa&limit=6' });
    expect(lines.join('')).toContain('q=contessa');
  });

  it('logs no cookie, authorization header or CSRF token', async () => {
    await server.inject({
      url: '/test/boom',
      headers: { cookie: 'session=SECRET-SESSION', authorization: 'Bearer SECRET-BEARER', 'x-csrf-token': 'SECRET-CSRF' },
    });
    const log = lines.join('');
    expect(log).not.toContain('SECRET-SESSION');
    expect(log).not.toContain('SECRET-BEARER');
    expect(log).not.toContain('SECRET-CSRF');
  });
});
