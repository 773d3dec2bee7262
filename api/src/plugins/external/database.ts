import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createDatabase } from '../../db/create-database.js';
import type { Database } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
  }
}

/** Kysely on PostgreSQL (DATABASE_URL) or the embedded PGlite, migrated before the app serves. */
export default fp(
  async (fastify) => {
    const { databaseUrl, pgliteDir } = fastify.config;
    const db = createDatabase({ databaseUrl, pgliteDir });
    fastify.addHook('onClose', async () => {
      await db.destroy();
    });
    const { results } = await migrateToLatest(db);
    for (const result of results ?? []) fastify.log.info({ migration: result.migrationName }, 'migration applied');
    fastify.log.info({ database: databaseUrl ? 'postgresql' : `pglite:${pgliteDir}` }, 'database ready');
    fastify.decorate('db', db);
  },
  { name: 'database' },
);
