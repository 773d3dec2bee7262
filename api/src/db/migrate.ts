import { FileMigrationProvider, Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import fs from 'node:fs/promises';
import path from 'node:path';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

export function createMigrator(db: Kysely<any>): Migrator {
  return new Migrator({
    db,
    // Works from src/ (tsx, vitest: .ts files) and from dist/ (node: .js files) alike.
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }),
  });
}

/** Brings the schema up to date; throws with the failing migration's name if one fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const resultSet = await createMigrator(db).migrateToLatest();
  if (resultSet.error) {
    const failed = resultSet.results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: resultSet.error });
  }
  return resultSet;
}
