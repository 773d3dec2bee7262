import type { FastifyInstance } from 'fastify';
import { test as base } from 'vitest';
import type { Config } from '../../src/config.js';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { cookieHeader, createUserWithSession, csrfCredentials, type UserWithSession } from '../helpers/users.js';

export interface AppOptions {
  /** settings on top of buildTestApp's test defaults */
  config?: Partial<Config>;
  /** registers extra test-only routes before the app starts, e.g. to probe a hook */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** Cookie and headers that let a visitor without a session make state-changing requests. */
export interface Csrf {
  cookies: Record<string, string>;
  /** ready for `app.inject({ headers })`: the csrf cookie and the matching x-csrf-token header */
  headers: Record<string, string>;
}

/**
 * The API tests' set-up as vitest fixtures, instead of the same beforeAll/beforeEach/afterAll in
 * every file:
 *
 *   const test = testWithApp({ config: { authRateLimitPerMinute: 0 } });   // or testWithApp()
 *   test('refuses …', async ({ app, shopper, admin, csrf }) => { ... });
 *
 * - `server`: the app of this file (built once per file, closed after its last test), tables as
 *   the previous test left them. For tests that build on each other's rows.
 * - `app`: the same app with every table emptied before the test.
 * - `shopper`, `admin`: a user (role user; roles user + admin) with a live session, on the
 *   emptied tables; `.headers` carry the session, the csrf cookie and the x-csrf-token header.
 * - `csrf`: the csrf cookie and header for a visitor who is not signed in.
 */
export function testWithApp(options: AppOptions = {}) {
  return (
    base
      // vitest reads a fixture's dependencies from its first parameter's destructuring: none here.
      // eslint-disable-next-line no-empty-pattern
      .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<TestApp> => {
        const app = await buildTestApp(options.config, options.extend);
        onCleanup(() => app.close());
        return app;
      })
      .extend('app', async ({ server }): Promise<TestApp> => {
        await resetDatabase(server);
        return server;
      })
      .extend('shopper', async ({ app }): Promise<UserWithSession> => createUserWithSession(app, { displayName: 'Sandy Shopper' }))
      .extend('admin', async ({ app }): Promise<UserWithSession> =>
        createUserWithSession(app, { roles: ['user', 'owner'], displayName: 'Ada Admin' }),
      )
      .extend('csrf', async ({ server }): Promise<Csrf> => {
        const { cookies, headers } = await csrfCredentials(server);
        return { cookies, headers: { cookie: cookieHeader(cookies), ...headers } };
      })
  );
}

/** The fixtures with buildTestApp's defaults. */
export const test = testWithApp();

/** `it` with the fixtures, for files on buildTestApp's defaults. */
export const it = test;
export type { TestApp };
