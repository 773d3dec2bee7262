import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRUSTED_PROXIES } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

// Probe routes: what the app takes for the client's address, and the real per-IP rate limiter.
function probeRoutes(app: FastifyInstance) {
  app.get('/test/ip', async (request) => ({ ip: request.ip }));
  app.get('/test/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({ ok: true }));
}

describe('trusted proxies (TRUST_PROXY)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The default: the shell's /api proxy on loopback.
    app = await buildTestApp({ trustProxy: [...DEFAULT_TRUSTED_PROXIES] }, probeRoutes);
  });
  afterAll(() => app?.close());

  const ipSeen = async (remoteAddress: string, forwardedFor?: string) => {
    const response = await app.inject({
      url: '/test/ip',
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });
    return response.json().ip as string;
  };

  it('takes the client address from X-Forwarded-For when a trusted proxy connects', async () => {
    expect(await ipSeen('127.0.0.1', '198.51.100.7')).toBe('198.51.100.7');
    expect(await ipSeen('::1', '198.51.100.8')).toBe('198.51.100.8');
    // What the client wrote itself, left of the proxy's entry, is not believed either.
    expect(await ipSeen('127.0.0.1', '10.9.9.9, 198.51.100.9')).toBe('198.51.100.9');
  });

  it('ignores X-Forwarded-For from anyone else', async () => {
    expect(await ipSeen('203.0.113.5', '198.51.100.7')).toBe('203.0.113.5');
    expect(await ipSeen('203.0.113.5', '127.0.0.1')).toBe('203.0.113.5');
    expect(await ipSeen('203.0.113.5')).toBe('203.0.113.5');
  });

  it('keeps rate limiting a client that forges a new X-Forwarded-For on every request', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 3; i += 1) {
      const response = await app.inject({
        url: '/test/limited',
        remoteAddress: '203.0.113.66',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('counts the clients behind a trusted proxy one by one', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 3; i += 1) {
      const response = await app.inject({
        url: '/test/limited',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200]);
  });
});

describe('TRUST_PROXY=none', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ trustProxy: [] }, probeRoutes);
  });
  afterAll(() => app?.close());

  it('believes no X-Forwarded-For, not even from loopback', async () => {
    const response = await app.inject({ url: '/test/ip', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(response.json().ip).toBe('127.0.0.1');
  });
});
