import type { PGlite } from '@electric-sql/pglite';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../db/create-database.js';
import type { Database } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import {
  PGliteChannelListener,
  PostgresChannelListener,
  type ChannelHandlers,
  type ChannelListener,
  type ReconnectDelays,
} from '../../db/notifications.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    /** The embedded database behind `db`, or null on PostgreSQL (the job queue talks to it directly). */
    pglite: PGlite | null;
    /** PostgreSQL: the pg pool behind `db`, for its counts (metrics); null on PGlite. */
    dbPool: import('pg').Pool | null;
    /**
     * LISTEN on a channel of this database (PostgreSQL: on a connection of its own, reconnecting;
     * PGlite: in process). Stopped when the app closes.
     */
    listenToDatabase(channel: string, handlers: ChannelHandlers, delays?: ReconnectDelays): Promise<ChannelListener>;
  }
}

/** Kysely on PostgreSQL (DATABASE_URL) or the embedded PGlite, migrated before the app serves. */
export default fp(
  async (fastify) => {
    const { databaseUrl, pgliteDir, pgliteTemplate, database } = fastify.config;
    const { db, pglite, pool } = openDatabase({
      databaseUrl,
      pgliteDir,
      pgliteTemplate,
      maxConnections: database.poolSize,
      connectTimeoutMs: database.connectTimeoutMs,
      statementTimeoutMs: database.statementTimeoutMs,
      maxWaiting: database.maxWaiting,
      // A restart or failover drops every connection: the pool replaces them on demand.
      onConnectionError: (err) => fastify.log.warn({ err }, 'database connection lost; the pool will open a new one'),
      onAbandonedTransaction: () =>
        fastify.log.error('embedded database: a statement left a transaction open; rolled back so the next queries run'),
    });
    const listeners = new Set<ChannelListener>();
    fastify.addHook('onClose', async () => {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await db.destroy();
    });
    // Migrations may rightly run longer than any request's statement timeout (an index on a big
    // table): on PostgreSQL they get a connection of their own without one.
    const migrationDb = databaseUrl ? openDatabase({ databaseUrl, pgliteDir, maxConnections: 1 }).db : db;
    const { results } = await migrateToLatest(migrationDb).finally(() => (migrationDb === db ? undefined : migrationDb.destroy()));
    for (const result of results ?? []) fastify.log.info({ migration: result.migrationName }, 'migration applied');
    // The app's own pool, with its timeouts, must reach the database too before the app serves.
    await sql`select 1`.execute(db);
    fastify.log.info({ database: databaseUrl ? 'postgresql' : `pglite:${pgliteDir}` }, 'database ready');
    fastify.decorate('db', db);
    fastify.decorate('pglite', pglite);
    fastify.decorate('dbPool', pool ?? null);
    fastify.decorate('listenToDatabase', async (channel: string, handlers: ChannelHandlers, delays?: ReconnectDelays) => {
      const listener = pglite
        ? new PGliteChannelListener(pglite, channel, handlers)
        : new PostgresChannelListener(databaseUrl!, channel, handlers, fastify.log, delays, {
            timeoutMs: database.connectTimeoutMs,
            heartbeatMs: database.heartbeatMs,
          });
      listeners.add(listener);
      await listener.start();
      return listener;
    });
  },
  { name: 'database' },
);
