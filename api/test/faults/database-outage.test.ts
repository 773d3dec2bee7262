import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEV_STRIPE, loadConfig } from '../../src/config.js';
import { resetDatabase } from '../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../helpers/users.js';
import {
  confirmCardLikeTheBrowser,
  createBody,
  insertProduct,
  intentIdOf,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../routes/payments/payments-test-kit.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

// PostgreSQL restarts, fails over or vanishes from the network while the API is under load. The
// API reaches the database through a TCP proxy the test can cut (every connection reset, new ones
// refused) or blackhole (nothing forwarded, no error either), then restore.
const databaseUrl = process.env.DATABASE_URL;
const VISA = '4242424242424242';
const SLOWEST_ANSWER_MS = 5_000;
const defaults = loadConfig({ ...process.env, NODE_ENV: 'test' });

interface Outcome {
  route: string;
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
  ms: number;
}

describe.skipIf(!databaseUrl)(
  'the API while PostgreSQL goes away (PostgreSQL only: PGlite lives inside the process and cannot be cut off)',
  () => {
    let proxy: TcpProxy;
    let harness: PaymentsHarness;
    const crashes: unknown[] = [];
    const recordCrash = (error: unknown) => crashes.push(error);

    beforeAll(async () => {
      // Without a handler an 'error' on a pooled connection kills the process: these listeners
      // keep the test alive long enough to say so.
      process.on('uncaughtException', recordCrash);
      process.on('unhandledRejection', recordCrash);
      const target = new URL(databaseUrl!);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      harness = await startPaymentsHarness({
        databaseUrl: proxy.rewrite(databaseUrl!),
        catalogCache: { ttlMs: 60_000, maxEntries: 1000 },
        // Short enough that a blackholed statement gives up well inside the 5 s every answer must meet.
        database: { ...defaults.database, statementTimeoutMs: 1_500, heartbeatMs: 500 },
      });
    });
    beforeEach(async () => {
      proxy.restore();
      await resetDatabase(harness.app);
      crashes.length = 0;
    });
    afterEach(() => {
      expect(crashes.map(String)).toEqual([]);
    });
    afterAll(async () => {
      proxy?.restore();
      await harness?.close();
      await proxy?.close();
      process.off('uncaughtException', recordCrash);
      process.off('unhandledRejection', recordCrash);
    });

    async function openOrder(shopper: UserWithSession, productId: string, priceCents: number) {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/api/payments/create',
        headers: shopper.headers,
        payload: createBody([{ productId, quantity: 1 }], priceCents),
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json<{ orderId: string; clientSecret: string }>();
      return { ...created, intentId: intentIdOf(created.clientSecret) };
    }

    /** A signed provider event about no order: the API must record it, so it needs the database. */
    function signedWebhook(): InjectOptions {
      const payload = JSON.stringify({
        id: `evt_outage_${Math.random().toString(36).slice(2)}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: {
          object: {
            id: `pi_outage_${Math.random().toString(36).slice(2)}`,
            object: 'payment_intent',
            amount: 100,
            currency: 'eur',
            status: 'succeeded',
          },
        },
      });
      const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
      return {
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        payload,
      };
    }

    /** Many requests at once, of every kind that needs the database, each timed. */
    async function underLoad(shopper: UserWithSession, productId: string, orderId: string, rounds = 8): Promise<Outcome[]> {
      const kinds: { route: string; request: InjectOptions }[] = [
        { route: 'list products', request: { method: 'GET', url: '/api/products?limit=12' } },
        { route: 'one product', request: { method: 'GET', url: `/api/products/${productId}` } },
        { route: 'session', request: { method: 'GET', url: '/api/auth/session', headers: shopper.headers } },
        { route: 'order history', request: { method: 'GET', url: '/api/orders', headers: shopper.headers } },
        { route: 'health', request: { method: 'GET', url: '/api/health' } },
        {
          route: 'create payment',
          request: {
            method: 'POST',
            url: '/api/payments/create',
            headers: shopper.headers,
            payload: createBody([{ productId, quantity: 1 }], 1_900_000),
          },
        },
        {
          route: 'confirm payment',
          request: { method: 'POST', url: '/api/payments/confirm', headers: shopper.headers, payload: { orderId } },
        },
        // No session to look up first: straight into a transaction (record the event, apply it).
        { route: 'webhook', request: signedWebhook() },
      ];
      const requests = Array.from({ length: rounds }, () => kinds).flat();
      return Promise.all(
        requests.map(async ({ route, request }) => {
          const started = performance.now();
          const response = await harness.app.inject(request);
          const body = response.headers['content-type']?.toString().includes('json') ? response.json() : {};
          return {
            route,
            status: response.statusCode,
            retryAfter: response.headers['retry-after']?.toString(),
            code: route === 'health' ? body.database : body.error?.code,
            ms: performance.now() - started,
          };
        }),
      );
    }

    function expectAllUnavailable(outcomes: Outcome[]) {
      const wrong = outcomes.filter(
        (o) =>
          o.status !== 503 ||
          !o.retryAfter ||
          o.ms > SLOWEST_ANSWER_MS ||
          o.code !== (o.route === 'health' ? 'unreachable' : 'DATABASE_UNAVAILABLE'),
      );
      expect(wrong).toEqual([]);
    }

    /** The same process serves again, without a restart, within seconds of the database's return. */
    async function servesAgain() {
      const started = performance.now();
      await vi.waitFor(
        async () => {
          const response = await harness.app.inject({ method: 'GET', url: '/api/products?limit=12' });
          expect(response.statusCode).toBe(200);
        },
        { timeout: 10_000, interval: 100 },
      );
      return performance.now() - started;
    }

    async function paidOrderIds(): Promise<string[]> {
      const rows = await harness.app.db.selectFrom('orders').select('id').where('status', '=', 'paid').orderBy('id').execute();
      return rows.map((row) => row.id);
    }

    it('answers 503 with Retry-After to everything, quickly, while the database is cut or blackholed, and sells again once it is back', async () => {
      const shopper = await createUserWithSession(harness.app);
      const productId = await insertProduct(harness.app, { name: 'Dinghy', priceCents: 1_900_000 });

      // Order A is paid before the outage.
      const orderA = await openOrder(shopper, productId, 1_900_000);
      await confirmCardLikeTheBrowser(harness.standinUrl, orderA.clientSecret, VISA);
      expect((await harness.webhookDelivered('payment_intent.succeeded', orderA.intentId)).statusCode).toBe(200);
      // Order B is opened before; the shopper pays it at the provider during the outage.
      const orderB = await openOrder(shopper, productId, 1_900_000);
      // The pool is warm: every connection it holds is about to die under it.
      await Promise.all(Array.from({ length: 20 }, () => harness.app.inject({ method: 'GET', url: '/api/products' })));

      proxy.cut();
      expectAllUnavailable(await underLoad(shopper, productId, orderB.orderId));
      await confirmCardLikeTheBrowser(harness.standinUrl, orderB.clientSecret, VISA);
      // The provider's webhook is refused with a 503 (so it would retry), not lost in a 500.
      expect((await harness.webhookDelivered('payment_intent.succeeded', orderB.intentId)).statusCode).toBe(503);
      expectAllUnavailable(await underLoad(shopper, productId, orderB.orderId));

      proxy.restore();
      expect(await servesAgain()).toBeLessThan(5_000);

      // A dead network: nothing answers, nothing fails; only the API's own timeouts end the wait.
      await Promise.all(Array.from({ length: 20 }, () => harness.app.inject({ method: 'GET', url: '/api/products' })));
      proxy.blackhole();
      expectAllUnavailable(await underLoad(shopper, productId, orderB.orderId, 6));

      proxy.restore();
      expect(await servesAgain()).toBeLessThan(5_000);

      // Order B, paid during the outage, becomes paid once the shop asks the provider.
      const confirmed = await harness.app.inject({
        method: 'POST',
        url: '/api/payments/confirm',
        headers: shopper.headers,
        payload: { orderId: orderB.orderId },
      });
      expect(confirmed.json()).toEqual({ orderId: orderB.orderId, status: 'paid' });
      // And a whole new checkout goes through the webhook.
      const orderC = await openOrder(shopper, productId, 1_900_000);
      await confirmCardLikeTheBrowser(harness.standinUrl, orderC.clientSecret, VISA);
      expect((await harness.webhookDelivered('payment_intent.succeeded', orderC.intentId)).statusCode).toBe(200);

      // No paid order lost or doubled; no order was opened by the refused requests.
      expect(await paidOrderIds()).toEqual([orderA.orderId, orderB.orderId, orderC.orderId].sort());
      const { count } = await harness.app.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(3);
      const history = await harness.app.inject({ method: 'GET', url: '/api/orders', headers: shopper.headers });
      expect(
        history
          .json()
          .data.map((order: { id: string }) => order.id)
          .sort(),
      ).toEqual([orderA.orderId, orderB.orderId, orderC.orderId].sort());
    });

    it('keeps the catalogue cache off while its LISTEN connection is down, and reconnects it by itself', async () => {
      const productId = await insertProduct(harness.app, { name: 'Wayfarer', priceCents: 900_000 });
      await vi.waitFor(() => expect(harness.app.catalogCache.enabled).toBe(true), { timeout: 10_000 });

      for (const fault of ['cut', 'blackhole'] as const) {
        proxy[fault]();
        // A blackhole raises no error: only the listener's heartbeat can tell.
        await vi.waitFor(() => expect(harness.app.catalogCache.enabled).toBe(false), { timeout: 5_000, interval: 20 });
        for (let i = 0; i < 5; i += 1) {
          // Off, not serving what it held: a read needs the database, and says it is unavailable.
          const response = await harness.app.inject({ method: 'GET', url: `/api/products/${productId}` });
          expect(response.statusCode).toBe(503);
          expect(harness.app.catalogCache.enabled).toBe(false);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        proxy.restore();
        await vi.waitFor(() => expect(harness.app.catalogCache.enabled).toBe(true), { timeout: 15_000, interval: 50 });

        // The new connection hears changes again: a plain SQL write empties the cache.
        const name = `Wayfarer after ${fault}`;
        await harness.app.inject({ method: 'GET', url: `/api/products/${productId}` });
        await sql`update products set name = ${name} where id = ${productId}`.execute(harness.app.db);
        await vi.waitFor(
          async () => expect((await harness.app.inject({ method: 'GET', url: `/api/products/${productId}` })).json().name).toBe(name),
          { timeout: 5_000, interval: 50 },
        );
      }
      // Reconnecting waits out a capped backoff (up to 10 s) twice.
    }, 60_000);
  },
);
