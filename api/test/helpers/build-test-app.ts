import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import app, { serverOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * The real app on a migrated database, driven with `app.inject` (no port):
 * PostgreSQL when DATABASE_URL is set, else a fresh in-memory PGlite. Most tests take it from the
 * fixtures of test/support/fixtures.ts (`it('…', async ({ app }) => …)`) rather than calling this.
 */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  /** registers extra test-only routes on the app before it starts, e.g. to probe a hook */
  extend?: (app: FastifyInstance) => void | Promise<void>,
) {
  const config: Config = {
    ...loadConfig({ ...process.env, NODE_ENV: 'test' }),
    pgliteDir: 'memory://',
    seedDemoData: false,
    // Off unless a test asks for it: many tests write products with SQL and read them back at
    // once, and on PostgreSQL the notification that empties the cache arrives a moment later.
    // test/routes/products/cache.test.ts turns it on.
    catalogCache: { ttlMs: 0, maxEntries: 1000 },
    // Off unless a test asks for it: PGlite's start blocks the event loop for seconds, which the
    // load shedder would rightly answer with 503s. test/plugins/under-pressure.test.ts turns it on.
    loadShedding: { maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, retryAfterSeconds: 10 },
    // No job queue unless a test asks for it (test/jobs/): the outbox fills, nothing is sent.
    jobs: { enabled: false, pollingIntervalSeconds: 0.5, retryLimit: 3, retryDelaySeconds: 1, outboxSweepMs: 200 },
    ...overrides,
  };
  const fastify = Fastify(serverOptions(config)).withTypeProvider<TypeBoxTypeProvider>();
  const routes: RouteOptions[] = [];
  fastify.addHook('onRoute', (route) => {
    routes.push(route);
  });
  registeredRoutes.set(fastify, routes);
  await fastify.register(fp(app), { config });
  if (extend) await fastify.register(fp(extend));
  await fastify.ready();
  return fastify;
}

const registeredRoutes = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Every route the app registered (seen by an onRoute hook added before the app), with its schema. */
export function routesOf(app: FastifyInstance): readonly RouteOptions[] {
  const routes = registeredRoutes.get(app);
  if (!routes) throw new Error('not an app built by buildTestApp');
  return routes;
}

/** Empties every table but Kysely's migration bookkeeping, so each test starts from a clean schema. */
export async function resetDatabase(app: TestApp): Promise<void> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%'
  `.execute(app.db);
  if (rows.length === 0) return;
  await sql`truncate table ${sql.join(rows.map((row) => sql.table(row.tablename)))} cascade`.execute(app.db);
}
