import type { PGlite } from '@electric-sql/pglite';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
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
    const { databaseUrl, pgliteDir } = fastify.config;
    const { db, pglite } = openDatabase({ databaseUrl, pgliteDir });
    const listeners = new Set<ChannelListener>();
    fastify.addHook('onClose', async () => {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await db.destroy();
    });
    const { results } = await migrateToLatest(db);
    for (const result of results ?? []) fastify.log.info({ migration: result.migrationName }, 'migration applied');
    fastify.log.info({ database: databaseUrl ? 'postgresql' : `pglite:${pgliteDir}` }, 'database ready');
    fastify.decorate('db', db);
    fastify.decorate('pglite', pglite);
    fastify.decorate('listenToDatabase', async (channel: string, handlers: ChannelHandlers, delays?: ReconnectDelays) => {
      const listener = pglite
        ? new PGliteChannelListener(pglite, channel, handlers)
        : new PostgresChannelListener(databaseUrl!, channel, handlers, fastify.log, delays);
      listeners.add(listener);
      await listener.start();
      return listener;
    });
  },
  { name: 'database' },
);
