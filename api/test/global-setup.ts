import { PGLITE_EXTENSIONS } from '../src/db/pglite-extensions.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/create-database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { PGliteDialect } from '../src/db/pglite-dialect.js';
import { BASE_DATABASE_URL, databaseName, onServer, templateDatabaseUrl, workerDatabaseUrl } from './support/worker-databases.js';

/**
 * Once per run, before any test file:
 * - PGlite: every test file gets a database of its own, and a fresh PGlite cluster costs seconds
 *   (initdb in WebAssembly) before the migrations run. This migrates one and dumps it; every
 *   file's database then starts from the dump (PGLITE_TEMPLATE, read by create-database.ts).
 * - PostgreSQL (DATABASE_URL): migrates a template database and copies it once per worker
 *   (CREATE DATABASE … TEMPLATE, test/support/worker-databases.ts), so files run in parallel,
 *   each worker truncating only its own; they are dropped again after the run.
 */
export default async function setup(project: TestProject): Promise<(() => void | Promise<void>) | undefined> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) return setUpPostgres(databaseUrl, project.config.maxWorkers);
  if (process.env.PGLITE_TEMPLATE) return undefined;
  // Every app a test builds unpacks this dump (about 70 a run), so it is kept small: 1 MB WAL
  // segments instead of 16, and no template0 and template1 (the tests use the database
  // "postgres" only and never create one). 41 MB became 16 MB, and an open about 0.7 s of CPU
  // instead of 1.1 s.
  const pglite = new PGlite({ initDbStartParams: ['--wal-segsize=1'], extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  // One statement at a time: a multi-statement exec is one transaction, which DROP DATABASE refuses.
  for (const statement of [
    "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
    'drop database template0',
    'drop database template1',
    'checkpoint',
  ]) {
    await pglite.exec(statement);
  }
  const dump = await pglite.dumpDataDir('none');
  await db.destroy();
  const folder = mkdtempSync(join(tmpdir(), 'boatshop-api-pglite-'));
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = file;
  return () => rmSync(folder, { recursive: true, force: true });
}

async function setUpPostgres(baseUrl: string, workers: number | undefined): Promise<() => Promise<void>> {
  if (!workers) throw new Error('vitest.config.ts must set maxWorkers: one PostgreSQL database is made per worker');
  const templateUrl = templateDatabaseUrl(baseUrl);
  const workerUrls = Array.from({ length: workers }, (_, index) => workerDatabaseUrl(baseUrl, index + 1));
  // FORCE: a run that was killed may have left its connections behind.
  const dropAll = (quote: (name: string) => string) =>
    [templateUrl, ...workerUrls].map((url) => `drop database if exists ${quote(databaseName(url))} with (force)`);

  await onServer(baseUrl, (quote) => [...dropAll(quote), `create database ${quote(databaseName(templateUrl))}`]);
  const template = createDatabase({ databaseUrl: templateUrl, pgliteDir: 'memory://' });
  await migrateToLatest(template).finally(() => template.destroy());
  await onServer(baseUrl, (quote) =>
    workerUrls.map((url) => `create database ${quote(databaseName(url))} template ${quote(databaseName(templateUrl))}`),
  );
  process.env[BASE_DATABASE_URL] = baseUrl;
  return () => onServer(baseUrl, dropAll);
}
