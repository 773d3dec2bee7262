import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, routesOf, type TestApp } from '../helpers/build-test-app.js';
import { insertProduct } from '../helpers/products.js';
import { cookieHeader, createUserWithSession, csrfCredentials, type UserWithSession } from '../helpers/users.js';
import { attemptFor, knownIds, type Endpoint, type Role } from '../support/bad-input-requests.js';

// Bad input, everywhere: every route the app registers (collected by buildTestApp's onRoute hook,
// so a route added tomorrow is covered without touching this file) gets requests generated from
// its own schemas and broken on purpose: wrong types, missing fields, nulls, 100 kB strings, deep
// JSON, NUL bytes, non-UUID ids, absurd numbers, wrong content types. Sent as a visitor, a shopper
// and an admin, each with the CSRF token so the request reaches the handler. The API must answer
// below 500, with the usual error body when it refuses, and a refused request leaves the
// database exactly as it was.

const SEED = 20_261_123;
const RUNS_PER_ROUTE = Number(process.env.BAD_INPUT_RUNS ?? 40);

/**
 * Written on purpose when a request is refused: failed sign-ins count against the account, and
 * the audit log records every admin request that would change something, refused ones included.
 */
const WRITES_WHEN_REFUSED = new Set(['auth_attempts', 'audit_log']);

const DEPENDENCY_DOWN = new Set([502, 503]);

function declaredStatuses(endpoint: Endpoint): Set<number> {
  return new Set(Object.keys(endpoint.schema.response ?? {}).map(Number));
}

// ------------------------------------------------------------------------------------------
// The app, its routes and the database

function endpointsOf(app: TestApp): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const route of routesOf(app) as RouteOptions[]) {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD');
    for (const method of methods) {
      const url = route.url.length > 1 ? route.url.replace(/\/$/, '') : route.url;
      const key = `${method} ${url}`;
      if (!seen.has(key)) seen.set(key, { method, url, schema: (route.schema ?? {}) as Endpoint['schema'] });
    }
  }
  return [...seen.values()];
}

/** Counts every row written to a watched table, so an unchanged count proves an unchanged database. */
const WRITE_COUNTER = 'bad_input_row_writes';

async function watchedTables(app: TestApp): Promise<string[]> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%' order by tablename
  `.execute(app.db);
  return rows.map((row) => row.tablename).filter((name) => !WRITES_WHEN_REFUSED.has(name) && name !== WRITE_COUNTER);
}

/** Row-level triggers on every watched table add one to the counter per row inserted, updated or deleted. */
async function countWrites(app: TestApp): Promise<void> {
  await sql`create table ${sql.table(WRITE_COUNTER)} (n bigint not null)`.execute(app.db);
  await sql`insert into ${sql.table(WRITE_COUNTER)} values (0)`.execute(app.db);
  await sql
    .raw(
      `create function ${WRITE_COUNTER}_add() returns trigger language plpgsql as $$
       begin update ${WRITE_COUNTER} set n = n + 1; return null; end $$`,
    )
    .execute(app.db);
  for (const table of await watchedTables(app)) {
    await sql
      .raw(
        `create trigger ${WRITE_COUNTER} after insert or update or delete on "${table}" for each row execute function ${WRITE_COUNTER}_add()`,
      )
      .execute(app.db);
    await sql
      .raw(
        `create trigger ${WRITE_COUNTER}_truncate after truncate on "${table}" for each statement execute function ${WRITE_COUNTER}_add()`,
      )
      .execute(app.db);
  }
}

/** The worker's database serves the files after this one: without the counter and its triggers. */
async function stopCountingWrites(app: TestApp): Promise<void> {
  for (const table of await watchedTables(app)) {
    await sql.raw(`drop trigger if exists ${WRITE_COUNTER} on "${table}"`).execute(app.db);
    await sql.raw(`drop trigger if exists ${WRITE_COUNTER}_truncate on "${table}"`).execute(app.db);
  }
  await sql.raw(`drop function if exists ${WRITE_COUNTER}_add() cascade`).execute(app.db);
  await sql.raw(`drop table if exists ${WRITE_COUNTER}`).execute(app.db);
}

/**
 * Row count and content hash of every table but the migrations' and those written on refusal.
 * Hashing every table after each of thousands of requests is most of this file's time (on PGlite
 * above all), so it is computed again only when the write counter moved: a request that wrote no
 * row left the hashes as they were.
 */
let lastSnapshot: { writes: string; tables: Record<string, string> } | null = null;
async function snapshot(app: TestApp): Promise<Record<string, string>> {
  const { rows: counter } = await sql<{ n: string }>`select n::text from ${sql.table(WRITE_COUNTER)}`.execute(app.db);
  const writes = counter[0]!.n;
  if (lastSnapshot?.writes === writes) return lastSnapshot.tables;
  const parts = (await watchedTables(app)).map(
    (name) =>
      sql`select ${name} as t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as h from ${sql.table(name)} x`,
  );
  const { rows } = await sql<{ t: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(app.db);
  lastSnapshot = { writes, tables: Object.fromEntries(rows.map((row) => [row.t, row.h])) };
  return lastSnapshot.tables;
}

describe('every route answers malformed requests with a 4xx, never a 5xx', () => {
  let app: TestApp;
  let endpoints: Endpoint[];
  const headersOf: Record<Role, () => Promise<Record<string, string>>> = {} as never;

  beforeAll(async () => {
    // No per-IP limit: the generated requests must reach the handlers, not the limiter.
    app = await buildTestApp({ authRateLimitPerMinute: 0 });
    endpoints = endpointsOf(app);
    knownIds.push((await insertProduct(app)).id);
    await countWrites(app);
    // Fresh sessions per request: a generated logout (or anything else that ends a session)
    // must not turn the rest of the run into anonymous requests.
    headersOf.visitor = async () => {
      const csrf = await csrfCredentials(app);
      return { cookie: cookieHeader(csrf.cookies), ...csrf.headers };
    };
    await refreshSessions();
    headersOf.shopper = async () => shopper.headers;
    headersOf.admin = async () => admin.headers;
  }, 120_000);
  afterAll(async () => {
    if (!app) return;
    await stopCountingWrites(app);
    await app.close();
  });

  let shopper: UserWithSession;
  let admin: UserWithSession;
  async function refreshSessions() {
    shopper = await createUserWithSession(app);
    admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
  }

  it('finds the routes through the onRoute hook, those added by other features included', () => {
    const names = endpoints.map((endpoint) => `${endpoint.method} ${endpoint.url}`);
    expect(names).toEqual(
      expect.arrayContaining(['GET /api/products', 'POST /api/admin/products', 'PUT /api/admin/products/:id', 'POST /api/auth/login']),
    );
    expect(endpoints.length).toBeGreaterThan(20);
  });

  it('holds for generated requests on every route', async () => {
    const failures: string[] = [];
    let before = await snapshot(app);
    let sent = 0;
    const statuses: Record<string, Record<number, number>> = {};
    for (const endpoint of endpoints) {
      // Each route starts from the database as it is, so one route's failure is reported as its
      // own and not again by every route after it.
      before = await snapshot(app);
      await fc
        .assert(
          fc.asyncProperty(attemptFor(endpoint), async (attempt) => {
            let index = 0;
            const url = endpoint.url.replace(/:[A-Za-z_]+|\*/g, () => attempt.params[index++] ?? 'x');
            const headers: Record<string, string> = { ...(await headersOf[attempt.role]()) };
            let payload: string | undefined;
            if (attempt.body?.kind === 'json') {
              headers['content-type'] = 'application/json';
              payload = JSON.stringify(attempt.body.value) ?? 'null';
            } else if (attempt.body?.kind === 'deep') {
              headers['content-type'] = 'application/json';
              payload = `${'{"a":['.repeat(attempt.body.depth)}1${']}'.repeat(attempt.body.depth)}`;
            } else if (attempt.body?.kind === 'raw') {
              if (attempt.body.contentType) headers['content-type'] = attempt.body.contentType;
              payload = attempt.body.payload;
            }
            const response = await app.inject({
              method: endpoint.method,
              url,
              query: attempt.query,
              headers,
              ...(payload !== undefined ? { payload } : {}),
            });
            sent += 1;
            const key = `${endpoint.method} ${endpoint.url}`;
            statuses[key] = { ...statuses[key], [response.statusCode]: (statuses[key]?.[response.statusCode] ?? 0) + 1 };
            if (process.env.BAD_INPUT_VERBOSE === '2' && response.statusCode === 400) console.log(key, response.body.slice(0, 200));
            const where = `${endpoint.method} ${endpoint.url} as ${attempt.role} → ${response.statusCode}`;
            // A route may declare 502/503 for a dependency that is down whatever the input (the
            // OpenID provider is not running here); no other 5xx is an answer.
            if (!(DEPENDENCY_DOWN.has(response.statusCode) && declaredStatuses(endpoint).has(response.statusCode))) {
              expect(response.statusCode, `${where}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
            }
            if (response.statusCode >= 400 && response.headers['content-type']?.toString().startsWith('application/json')) {
              const body = response.json() as { error?: { code?: unknown; message?: unknown } };
              expect(typeof body.error?.code, `${where}: ${response.body.slice(0, 300)}`).toBe('string');
              expect(typeof body.error?.message, `${where}: ${response.body.slice(0, 300)}`).toBe('string');
            }
            // An accepted change may have ended the session (a logout): start the next one fresh.
            if (endpoint.method !== 'GET' && response.statusCode < 400) await refreshSessions();
            const after = await snapshot(app);
            if (response.statusCode >= 400) expect(after, `${where} changed the database`).toEqual(before);
            before = after;
          }),
          { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
        )
        .catch((error: Error) =>
          failures.push(
            `${endpoint.method} ${endpoint.url}: ${error.message
              .split('\n')
              .filter((line) => line.trim() !== '' && !line.startsWith('Hint'))
              // The counterexample, then why it failed (fast-check's "Got error: …" and the assertion's message).
              .slice(0, 10)
              .join('\n')}`,
          ),
        );
    }
    // BAD_INPUT_VERBOSE=1 shows how far the requests got: which statuses each route answered.
    if (process.env.BAD_INPUT_VERBOSE)
      console.table(Object.fromEntries(Object.entries(statuses).map(([key, counts]) => [key, JSON.stringify(counts)])));
    expect(sent).toBeGreaterThan(endpoints.length);
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 240_000);
});
