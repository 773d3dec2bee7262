import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrateToLatest } from '../src/db/migrate.js';
import { PGliteDialect } from '../src/db/pglite-dialect.js';

/**
 * On PGlite every test file gets a database of its own, and a fresh PGlite cluster costs seconds
 * (initdb in WebAssembly) before the migrations run. Once per run, this migrates one and dumps it;
 * every file's database then starts from the dump (PGLITE_TEMPLATE, read by create-database.ts).
 * On PostgreSQL (DATABASE_URL) there is one shared database and nothing to do.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL || process.env.PGLITE_TEMPLATE) return undefined;
  const pglite = new PGlite();
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  const dump = await pglite.dumpDataDir('none');
  await db.destroy();
  const folder = mkdtempSync(join(tmpdir(), 'boatshop-api-pglite-'));
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = file;
  return () => rmSync(folder, { recursive: true, force: true });
}
