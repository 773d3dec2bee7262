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

/**
 * Empties every table but Kysely's migration bookkeeping, so each test starts from a clean schema.
 * DELETE, children before parents, in one transaction: on PostgreSQL a TRUNCATE of the fifteen
 * tables took about 250 ms (new files for every table and index) against about 6 ms for the
 * DELETEs, and it runs before almost every test; on PGlite 25 ms against under 2 ms. The products
 * trigger fires once per statement for either, so the catalogue cache sees the same notification.
 */
export async function resetDatabase(app: TestApp): Promise<void> {
  const tables = await tablesChildrenFirst(app);
  if (tables.length === 0) return;
  await app.db.transaction().execute(async (trx) => {
    // The audit log refuses DELETE (append-only trigger); TRUNCATE is what its owner may still do.
    for (const table of tables)
      await (table === 'audit_log' ? sql`truncate ${sql.table(table)}` : sql`delete from ${sql.table(table)}`).execute(trx);
  });
}

// The schema does not change while a file's app lives: read it once per app.
const deletionOrders = new WeakMap<TestApp, Promise<string[]>>();

/** The app's tables, each after every table whose foreign keys point at it. */
function tablesChildrenFirst(app: TestApp): Promise<string[]> {
  let order = deletionOrders.get(app);
  if (!order) {
    order = readDeletionOrder(app);
    deletionOrders.set(app, order);
    // A failed read (say, the test closed the database on purpose) is not kept for the next test.
    order.catch(() => deletionOrders.delete(app));
  }
  return order;
}

async function readDeletionOrder(app: TestApp): Promise<string[]> {
  const { rows: tables } = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%'
  `.execute(app.db);
  const { rows: references } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint
    join pg_class child on child.oid = pg_constraint.conrelid
    join pg_class parent on parent.oid = pg_constraint.confrelid
    where pg_constraint.contype = 'f' and child.relnamespace = current_schema()::regnamespace
      and parent.relnamespace = current_schema()::regnamespace and child.oid <> parent.oid
  `.execute(app.db);
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: string[]) => {
    if (placed.has(table)) return;
    if (path.includes(table)) throw new Error(`resetDatabase: foreign keys form a cycle (${[...path, table].join(' → ')})`);
    for (const { child } of references.filter((reference) => reference.parent === table)) place(child, [...path, table]);
    placed.add(table);
    order.push(table);
  };
  for (const { tablename } of tables) place(tablename, []);
  return order;
}
