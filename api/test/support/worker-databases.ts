import pg from 'pg';

/**
 * On PostgreSQL every vitest worker gets a database of its own, so test files run in parallel and
 * each still empties its tables freely. The names come from DATABASE_URL's database and the
 * worker's VITEST_POOL_ID (`test` → `test_w1`, `test_w2`, copied from the migrated
 * `test_template`), so checkouts with different DATABASE_URLs never share one. The role needs
 * CREATEDB. test/global-setup.ts makes them, test/support/worker-database.ts points a worker at its own.
 */

/** Set by the global set-up: the DATABASE_URL the run was started with. */
export const BASE_DATABASE_URL = 'BOATSHOP_TEST_BASE_DATABASE_URL';

// PostgreSQL cuts longer names silently, and two cut names could meet.
const MAX_NAME_BYTES = 63;

export function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database (postgres://user@host:5432/<database>)');
  return name;
}

function withDatabase(databaseUrl: string, name: string): string {
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    throw new Error(`test database name ${name} is longer than ${MAX_NAME_BYTES} bytes: pick a shorter database in DATABASE_URL`);
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export function templateDatabaseUrl(baseUrl: string): string {
  return withDatabase(baseUrl, `${databaseName(baseUrl)}_template`);
}

export function workerDatabaseUrl(baseUrl: string, poolId: number): string {
  return withDatabase(baseUrl, `${databaseName(baseUrl)}_w${poolId}`);
}

/** CREATE and DROP DATABASE cannot run inside the database they act on: they run from the base one. */
export async function onServer(baseUrl: string, statements: (quote: (name: string) => string) => string[]): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (const statement of statements((name) => client.escapeIdentifier(name))) await client.query(statement);
  } finally {
    await client.end();
  }
}
