import fc from 'fast-check';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, routesOf, type TestApp } from '../helpers/build-test-app.js';
import { insertProduct } from '../helpers/products.js';
import { cookieHeader, createUserWithSession, csrfCredentials, type UserWithSession } from '../helpers/users.js';

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

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
};

interface Endpoint {
  method: HTTPMethods;
  url: string;
  schema: { body?: JsonSchema; querystring?: JsonSchema; params?: JsonSchema; response?: Record<string, unknown> };
}

const DEPENDENCY_DOWN = new Set([502, 503]);

function declaredStatuses(endpoint: Endpoint): Set<number> {
  return new Set(Object.keys(endpoint.schema.response ?? {}).map(Number));
}

type Role = 'visitor' | 'shopper' | 'admin';

// ------------------------------------------------------------------------------------------
// What to send

const HUGE = 'x'.repeat(100_000);
const UUID = '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b';

function deepJson(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

/** Values no field expects. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -1e308,
    2 ** 53 + 1,
    Number.MAX_SAFE_INTEGER,
    0.5,
    '',
    ' ',
    HUGE,
    'nul\u0000byte',
    '\u0000',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    UUID.toUpperCase(),
    '9'.repeat(400),
    '-99999999999999999999',
    '1e308',
    'NaN',
    'Infinity',
    '-Infinity',
    '+Infinity',
    '1e400',
    '-1e400',
    '2024-13-45T99:99:99Z',
    '+275760-09-13T00:00:00.000Z',
    "'; drop table products; --",
    '<script>alert(1)</script>',
    '\ud800',
    '../../etc/passwd',
    [],
    {},
    [null],
    { $gt: '' },
    { __proto__: { admin: true } },
    deepJson(64),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxKeys: 3 }),
);

/** Wrong values of the right type: they pass the schema and reach the handler and the database. */
const nastyString = fc.oneof(
  fc.constantFrom(
    'nul\u0000byte',
    'Sturdy\u0000sloop',
    HUGE,
    HUGE.slice(0, 999),
    '   ',
    '\ud800\udc00\ud83d',
    "O'Brien; drop table users; --",
    '<img src=x onerror=alert(1)>',
    'someone@example.test\u0000',
    'javascript:alert(1)',
    'NL\u0000',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);
const nastyNumber = fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 - 1, 2 ** 63, 1e15, 9_999_999_999_999, -2_147_483_649, 0.1);

/** Ids of rows that exist (filled in beforeAll), so a well-formed id reaches the row's handler. */
const knownIds: string[] = [];

/** Values the handlers accept for fields of these names, where the schema alone says too little. */
const PLAUSIBLE_BY_NAME: Record<string, unknown> = {
  country: 'NL',
  postal_code: '1011 AB',
  priceCents: 2_500_000,
  quantity: 1,
  descriptionHtml: '<p>A sturdy boat.</p>',
  displayName: 'Sandy Sailor',
  name: 'Sturdy sloop',
  thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
};

/** A value the schema would accept, so the broken fields around it reach the handler. */
function plausible(schema: JsonSchema | undefined, key = ''): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return plausible(union.find((option) => option.type !== 'null') ?? union[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (key in PLAUSIBLE_BY_NAME && type !== 'object' && type !== 'array') return PLAUSIBLE_BY_NAME[key];
  switch (type) {
    case 'string':
      if (schema.format === 'email' || /email/i.test(key)) return 'someone@example.test';
      if (schema.format === 'uuid' || /id$/i.test(key) || schema.pattern?.includes('[0-9a-f')) return knownIds[0] ?? UUID;
      if (/password/i.test(key)) return 'a-long-enough-passphrase';
      return 'Plausible value'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () => plausible(schema.items));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, child]) => [name, plausible(child, name)]));
    default:
      return 'x';
  }
}

/** Every path into a value: ['items'], ['items', 0], ['items', 0, 'productId'], … */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

/** The schema's plausible value with a few fields anywhere inside dropped or replaced, maybe an extra one. */
function brokenObject(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const base = plausible(schema ?? { type: 'object', properties: {} });
  const paths = pathsOf(base);
  if (paths.length === 0) return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), nastyValue, { minKeys: 1, maxKeys: 3 });
  return fc
    .record({
      edits: fc.array(
        fc.tuple(fc.constantFrom(...paths), fc.constantFrom('drop', 'any', 'typed', 'typed'), nastyValue, nastyString, nastyNumber),
        { minLength: 1, maxLength: 3 },
      ),
      extra: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), nastyValue), { nil: undefined }),
    })
    .map(({ edits, extra }) => {
      const value = structuredClone(base) as Record<string | number, unknown>;
      for (const [path, mode, any, string, number] of edits) {
        let parent: unknown = value;
        for (const step of path.slice(0, -1))
          parent = parent && typeof parent === 'object' ? (parent as Record<string | number, unknown>)[step] : undefined;
        if (!parent || typeof parent !== 'object') continue;
        const last = path[path.length - 1]!;
        const current = (parent as Record<string | number, unknown>)[last];
        const replacement =
          mode === 'drop'
            ? undefined
            : mode === 'typed' && typeof current === 'string'
              ? string
              : mode === 'typed' && typeof current === 'number'
                ? number
                : any;
        if (replacement === undefined) delete (parent as Record<string | number, unknown>)[last];
        else (parent as Record<string | number, unknown>)[last] = replacement;
      }
      if (extra) value[extra[0]] = extra[1];
      return value;
    });
}

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | undefined; payload: string }
  // Built when sent: a value this deep would overflow the stack of whoever prints it.
  | { kind: 'deep'; depth: number };

function bodyFor(schema: JsonSchema | undefined): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 6, arbitrary: brokenObject(schema).map((value): Body => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: nastyValue.map((value): Body => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.constantFrom<Body>({ kind: 'deep', depth: 5_000 }, { kind: 'deep', depth: 100_000 }) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          contentType: fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=latin1',
            undefined,
          ),
          payload: fc.constantFrom('{"name":', 'name=boat&price=1', '<xml/>', '', 'null', '[[[[[[', '\u0000', '{"a":"\\u0000"}', HUGE),
        })
        .map((raw): Body => ({ kind: 'raw', ...raw })),
    },
  );
}

function queryFor(schema: JsonSchema | undefined): fc.Arbitrary<Record<string, string | string[]>> {
  const names = [...Object.keys(schema?.properties ?? {}), 'unexpected'];
  return fc.dictionary(
    fc.constantFrom(...names),
    fc.oneof(
      nastyValue.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))),
      fc.array(fc.constantFrom('a', UUID, '', '\u0000', '-1'), { minLength: 2, maxLength: 3 }),
    ),
    { maxKeys: names.length },
  );
}

const pathValue = () =>
  fc.oneof(
    fc.constantFrom(...knownIds),
    fc.constantFrom(
      'not-a-uuid',
      '0',
      '-1',
      '1e308',
      'Infinity',
      '00000000-0000-0000-0000-000000000000',
      UUID,
      UUID.toUpperCase(),
      '%00',
      'a%00b',
      '..%2F..%2Fetc%2Fpasswd',
      HUGE.slice(0, 8_000),
      '%F0%9F%9A%A4',
      'null',
      '%20',
    ),
    fc.string({ minLength: 1, maxLength: 30 }).map((value) => encodeURIComponent(value)),
  );

interface Attempt {
  role: Role;
  params: string[];
  query: Record<string, string | string[]>;
  body: Body | null;
}

function attemptFor(endpoint: Endpoint): fc.Arbitrary<Attempt> {
  const paramCount = (endpoint.url.match(/:[A-Za-z_]+|\*/g) ?? []).length;
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(endpoint.method);
  return fc.record({
    role: fc.constantFrom<Role>('visitor', 'shopper', 'admin'),
    params: fc.array(pathValue(), { minLength: paramCount, maxLength: paramCount }),
    query: queryFor(endpoint.schema.querystring),
    body: hasBody ? bodyFor(endpoint.schema.body) : fc.constant(null),
  });
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
