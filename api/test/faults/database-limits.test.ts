import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

// PostgreSQL only: PGlite is one in-process connection with no pool, no network and no
// statement_timeout to speak of, so there is nothing there to wait for or to time out.
const onPostgres = Boolean(process.env.DATABASE_URL);
const defaults = loadConfig({ ...process.env, NODE_ENV: 'test' });
const UNAVAILABLE = {
  error: { code: 'DATABASE_UNAVAILABLE', message: 'The shop cannot reach its database right now. Please try again in a few seconds.' },
};

describe.skipIf(!onPostgres)('a busy or slow database (PostgreSQL only: PGlite has no pool and no statement timeout)', () => {
  let app: TestApp;
  let releaseHeld: () => void = () => undefined;
  beforeAll(async () => {
    app = await buildTestApp(
      {
        database: {
          ...defaults.database,
          poolSize: 1,
          maxWaiting: 2,
          connectTimeoutMs: 1_000,
          statementTimeoutMs: 300,
          retryAfterSeconds: 3,
        },
      },
      (fastify) => {
        fastify.get('/test/slow-query', async () => {
          await sql`select pg_sleep(2)`.execute(fastify.db);
          return { done: true };
        });
      },
    );
  });
  afterAll(async () => {
    releaseHeld();
    await app?.close();
  });

  it('cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS and answers 503, not 500', async () => {
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url: '/test/slow-query' });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('3');
    expect(response.json()).toEqual(UNAVAILABLE);
  });

  it('refuses at once the requests beyond DATABASE_MAX_WAITING, and times out those that wait too long', async () => {
    // The pool's only connection is taken for the length of the test.
    let held!: () => void;
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    releaseHeld = held;
    const taken = new Promise<void>((resolve) => {
      void app.db.connection().execute(async () => {
        resolve();
        await holding;
      });
    });
    await taken;

    const started = performance.now();
    const timed = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const response = await app.inject({ method: 'GET', url: '/api/products' });
        return { status: response.statusCode, body: response.json(), ms: performance.now() - started };
      }),
    );
    held();

    expect(timed.map((answer) => answer.status)).toEqual(Array(6).fill(503));
    for (const answer of timed) expect(answer.body).toEqual(UNAVAILABLE);
    // Two may wait (and give up after the 1 s connect timeout); the other four are refused at once.
    const quick = timed.filter((answer) => answer.ms < 500);
    const waited = timed.filter((answer) => answer.ms >= 900 && answer.ms < 2_000);
    expect([quick.length, waited.length]).toEqual([4, 2]);

    // And the pool is whole again afterwards.
    expect((await app.inject({ method: 'GET', url: '/api/products' })).statusCode).toBe(200);
  });
});

describe.skipIf(!onPostgres)('a network that dies in the middle of a transaction (PostgreSQL only)', () => {
  let proxy: TcpProxy;
  let app: TestApp;
  beforeAll(async () => {
    const target = new URL(process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    app = await buildTestApp(
      { databaseUrl: proxy.rewrite(process.env.DATABASE_URL!), database: { ...defaults.database, statementTimeoutMs: 500 } },
      (fastify) => {
        fastify.get('/test/transaction-then-silence', async () => {
          await fastify.db.transaction().execute(async (trx) => {
            await sql`select 1`.execute(trx);
            proxy.blackhole();
            await sql`select 2`.execute(trx);
          });
          return { done: true };
        });
      },
    );
  });
  afterAll(async () => {
    proxy?.restore();
    await app?.close();
    await proxy?.close();
  });

  it('answers 503 after one read timeout, not after a second one spent on the rollback', async () => {
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url: '/test/transaction-then-silence' });
    const ms = performance.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual(UNAVAILABLE);
    // The read timeout is the statement timeout plus 1 s: 1.5 s here.
    expect(ms).toBeGreaterThan(1_400);
    expect(ms).toBeLessThan(2_500);

    proxy.restore();
    await expect.poll(async () => (await app.inject({ method: 'GET', url: '/api/health' })).statusCode, { timeout: 5_000 }).toBe(200);
  });
});
