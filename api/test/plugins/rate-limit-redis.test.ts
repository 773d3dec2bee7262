import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { ShopVisitor } from '../routes/auth/browser.js';

// CI starts a Redis (.ci/run); elsewhere this suite runs only when one answers.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const reachable = await redisAnswers(REDIS_URL);

describe.runIf(reachable)('rate limits shared through Redis (REDIS_URL)', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    // Two replicas of the API, one Redis between them.
    first = await buildTestApp({ redisUrl: REDIS_URL, authRateLimitPerMinute: 3 });
    second = await buildTestApp({ redisUrl: REDIS_URL, authRateLimitPerMinute: 3 });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('counts one address across both replicas: the fourth attempt in a minute is refused by whichever answers it', async () => {
    // An address of its own per run, so nothing counted by an earlier run (or another suite) is in the way.
    const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const onFirst = await ShopVisitor.arrive(first, ip);
    const onSecond = await ShopVisitor.arrive(second, ip);
    const statuses: number[] = [];
    for (const visitor of [onFirst, onSecond, onFirst, onSecond]) {
      statuses.push((await visitor.post('/api/auth/login', { email: `someone-${ip}@example.com`, password: 'guess' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);

    const elsewhere = await ShopVisitor.arrive(first, `198.19.${Math.floor(Math.random() * 250)}.1`);
    expect((await elsewhere.post('/api/auth/login', { email: 'other@example.com', password: 'guess' })).statusCode).toBe(401);
  });
});

describe('rate limits without Redis', () => {
  let app: TestApp;
  beforeAll(async () => {
    // An address where nothing listens: the limit must neither wait for it nor fail the request.
    app = await buildTestApp({ redisUrl: 'redis://127.0.0.1:1', authRateLimitPerMinute: 3 });
  });
  afterAll(() => app?.close());

  it('still answers sign-ins when the configured Redis is down (the database throttle still holds)', async () => {
    const visitor = await ShopVisitor.arrive(app);
    const started = Date.now();
    const response = await visitor.post('/api/auth/login', { email: 'someone@example.com', password: 'guess' });
    expect(response.statusCode).toBe(401);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
