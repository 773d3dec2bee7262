import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import fs from 'node:fs';
import type { Database } from './database.js';
import { PGliteDialect } from './pglite-dialect.js';

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
  /** pool size for PostgreSQL */
  maxConnections?: number;
}

export interface OpenDatabase {
  db: Kysely<Database>;
  /** the embedded database behind `db`, or null on PostgreSQL */
  pglite: PGlite | null;
}

export function createDatabase(settings: DatabaseSettings): Kysely<Database> {
  return openDatabase(settings).db;
}

/** Like createDatabase, and hands out the PGlite instance for what Kysely does not do (LISTEN). */
export function openDatabase(settings: DatabaseSettings): OpenDatabase {
  if (settings.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: settings.databaseUrl,
      max: settings.maxConnections ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? parseSafeInteger : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pglite: null };
  }

  const inMemory = settings.pgliteDir.startsWith('memory://');
  if (!inMemory) fs.mkdirSync(settings.pgliteDir, { recursive: true });
  // One options object: PGlite ignores the second argument when the first (dataDir) is undefined.
  const pglite = new PGlite({
    ...(inMemory ? {} : { dataDir: settings.pgliteDir }),
    parsers: {
      [pgliteTypes.INT8]: parseSafeInteger,
      // pg leaves numeric as a string (exact); PGlite would make it a float. Keep pg's behaviour.
      [NUMERIC_OID]: (value: string) => value,
    },
  });
  return { db: new Kysely<Database>({ dialect: new PGliteDialect(pglite) }), pglite };
}
