import { loadConfig } from '../config.js';
import { createDatabase } from '../db/create-database.js';
import { migrateToLatest } from '../db/migrate.js';

/**
 * The database the server would use (DATABASE_URL, else PGlite in PGLITE_DIR), migrated.
 * PGlite is single-process: stop a server using the same folder first.
 */
export async function openCliDatabase() {
  const config = loadConfig();
  const db = createDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir, maxConnections: 2 });
  const label = config.databaseUrl ? 'PostgreSQL' : `PGlite (${config.pgliteDir})`;
  try {
    const { results } = await migrateToLatest(db);
    for (const result of results ?? []) console.log(`applied ${result.migrationName}`);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, label };
}
