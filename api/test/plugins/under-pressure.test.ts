import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

/** Keeps the event loop busy, as a burst of CPU-heavy requests would. */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe('load shedding (@fastify/under-pressure)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ loadShedding: { maxEventLoopDelayMs: 200, maxEventLoopUtilization: 0, retryAfterSeconds: 7 } });
  });
  afterAll(() => app?.close());

  it('answers 503 with Retry-After and the usual error body while the event loop lags, then serves again', async () => {
    // The sampler measures once a second: block across a whole window so its mean is far over 200 ms.
    await vi.waitFor(
      async () => {
        blockEventLoop(1_200);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const shed = await app.inject({ method: 'GET', url: '/api/products' });
        expect(shed.statusCode).toBe(503);
        expect(shed.headers['retry-after']).toBe('7');
        expect(shed.json()).toEqual({
          error: { code: 'OVERLOADED', message: 'The shop is very busy right now. Please try again in a few seconds.' },
        });
      },
      { timeout: 15_000, interval: 0 },
    );

    await vi.waitFor(async () => expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200), {
      timeout: 10_000,
      interval: 200,
    });
  });

  it('sheds the probes with a clean 503 too, not a 500 from their own 503 schema', async () => {
    // /api/ready and /api/health describe their own 503 body; a shed answer carries the error body.
    for (const url of ['/api/ready', '/api/health']) {
      await vi.waitFor(
        async () => {
          blockEventLoop(1_200);
          await new Promise((resolve) => setTimeout(resolve, 5));
          const shed = await app.inject({ method: 'GET', url });
          expect(shed.statusCode).toBe(503);
          expect(shed.json()).toMatchObject({ error: { code: 'OVERLOADED' } });
        },
        { timeout: 15_000, interval: 0 },
      );
    }
  });
});
