import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import fs from 'node:fs';
import { DatabaseUnavailableError } from './database-errors.js';
import type { Database } from './database.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PGLITE_EXTENSIONS } from './pglite-extensions.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Money is int8 cents and counts are int8: `pg` returns them as strings, PGlite as numbers.
 * Both get the same parser so values are identical, and anything beyond 2^53 fails loudly
 * instead of being silently rounded.
 */
export function parseSafeInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} does not fit in a JavaScript number`);
  return parsed;
}

export interface DatabaseSettings {
  databaseUrl: string | null;
  /** a folder, or `memory://` for a throw-away database */
  pgliteDir: string;
  /** `memory://` only: a dump file (pglite.dumpDataDir()) the database starts from (tests: a migrated one) */
  pgliteTemplate?: string | null;
  /** pool size for PostgreSQL */
  maxConnections?: number;
  /** PostgreSQL: give up opening a connection, or waiting for a free one, after this long */
  connectTimeoutMs?: number;
  /** PostgreSQL: the server cancels a longer statement; 0 for none */
  statementTimeoutMs?: number;
  /** PostgreSQL: requests allowed to wait for a connection when all are busy; more fail at once */
  maxWaiting?: number;
  /** PostgreSQL: a pooled connection failed (the pool replaces it); without it the process would exit */
  onConnectionError?: (error: Error) => void;
  /** PGlite: a borrower left the one connection inside a transaction, which was rolled back */
  onAbandonedTransaction?: () => void;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
// Scripts (migrate, seed) wait as long as their work takes; the API passes its configuration.
const DEFAULT_STATEMENT_TIMEOUT_MS = 0;
const DEFAULT_MAX_WAITING = Number.POSITIVE_INFINITY;
/** Beyond the statement timeout, how long the client waits for an answer that may never come (a dead network). */
const QUERY_TIMEOUT_MARGIN_MS = 1_000;

export interface OpenDatabase {
  db: Kysely<Database>;
  /** the embedded database behind `db`, or null on PostgreSQL */
  pglite: PGlite | null;
  /** PostgreSQL: the pool behind `db` (its counts are metrics); null on PGlite */
  pool?: pg.Pool | null;
}

export function createDatabase(settings: DatabaseSettings): Kysely<Database> {
  return openDatabase(settings).db;
}

/** Like createDatabase, and hands out the PGlite instance for what Kysely does not do (LISTEN). */
export function openDatabase(settings: DatabaseSettings): OpenDatabase {
  if (settings.databaseUrl) {
    const statementTimeoutMs = settings.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: settings.databaseUrl,
      max: settings.maxConnections ?? 10,
      // Without it, connecting to a blackholed server (failover, dead network) waits for ever,
      // and so does every request queued behind it: pg applies it to the wait for a free connection too.
      connectionTimeoutMillis: settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      // The server ends a runaway statement; the client stops waiting a moment later in case the
      // server's answer can never arrive.
      ...(statementTimeoutMs > 0
        ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS }
        : {}),
      // A connection that silently died is noticed by TCP instead of after hours.
      keepAlive: true,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? parseSafeInteger : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    const onConnectionError = settings.onConnectionError ?? (() => {});
    // An idle connection the server drops emits 'error' on the pool, which removes it; with no
    // listener, Node turns that into an uncaught exception and the process exits.
    pool.on('error', onConnectionError);
    // A checked-out connection emits 'error' on its client (the pool listens only while it is idle).
    pool.on('connect', (client) => client.on('error', onConnectionError));
    const guarded = guardPool(pool, settings.maxWaiting ?? DEFAULT_MAX_WAITING);
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }) }), pglite: null, pool };
  }

  const inMemory = settings.pgliteDir.startsWith('memory://');
  if (!inMemory) fs.mkdirSync(settings.pgliteDir, { recursive: true });
  // One options object: PGlite ignores the second argument when the first (dataDir) is undefined.
  const template = inMemory && settings.pgliteTemplate ? new Blob([fs.readFileSync(settings.pgliteTemplate)]) : null;
  const pglite = new PGlite({
    ...(inMemory ? {} : { dataDir: settings.pgliteDir }),
    extensions: PGLITE_EXTENSIONS,
    ...(template ? { loadDataDir: template } : {}),
    parsers: {
      [pgliteTypes.INT8]: parseSafeInteger,
      // pg leaves numeric as a string (exact); PGlite would make it a float. Keep pg's behaviour.
      [NUMERIC_OID]: (value: string) => value,
    },
  });
  return { db: new Kysely<Database>({ dialect: new PGliteDialect(pglite, settings.onAbandonedTransaction) }), pglite };
}

/**
 * What Kysely sees of the pg pool, with two guards pg does not have:
 * - a bound on requests queued for a connection: past it, fail at once (503) rather than pile up
 *   requests that would all time out anyway;
 * - a connection whose query gave up waiting for an answer (query_timeout: a dead network) goes
 *   back to the pool as broken, so the pool drops it instead of handing it to the next request
 *   (pg drops a connection that failed with a socket error by itself).
 */
function guardPool(pool: pg.Pool, maxWaiting: number): PostgresPool {
  const size = pool.options.max ?? 10;
  return {
    async connect(): Promise<PostgresPoolClient> {
      const full = pool.idleCount === 0 && pool.totalCount >= size;
      if (full && pool.waitingCount >= maxWaiting) {
        throw new DatabaseUnavailableError(`${pool.waitingCount} requests already wait for a database connection`);
      }
      const client = await pool.connect();
      let broken: Error | undefined;
      return {
        async query(sqlText: string, parameters: readonly unknown[]) {
          // pg would queue this behind the unanswered query and time it out too: a transaction's
          // rollback after a read timeout would double the wait.
          if (broken) throw broken;
          try {
            return await client.query(sqlText, parameters as unknown[]);
          } catch (error) {
            if (error instanceof Error && error.message === 'Query read timeout') broken = error;
            throw error;
          }
        },
        release() {
          client.release(broken);
        },
        // Kysely's cursor overload of query() is not offered: the dialect is built without a cursor.
      } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
