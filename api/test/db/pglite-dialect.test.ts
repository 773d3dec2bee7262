import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../src/db/pglite-dialect.js';

interface NotesDatabase {
  notes: { body: string };
}

describe('PGliteDialect', () => {
  let db: Kysely<NotesDatabase> | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it('ends a transaction a borrower left open, so one failed script does not break every later query', async () => {
    const pglite = new PGlite();
    const abandoned: number[] = [];
    db = new Kysely<NotesDatabase>({ dialect: new PGliteDialect(pglite, () => abandoned.push(1)) });

    // What pg-boss does through its custom db: a multi-statement script that fails half-way.
    await expect(db.connection().execute(() => pglite.exec('begin; select 1; select 1 / 0; commit;'))).rejects.toThrow(/division by zero/);

    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(db);
    expect(rows).toEqual([{ answer: 42 }]);
    expect(pglite.isInTransaction()).toBe(false);
    expect(abandoned).toHaveLength(1);
  });

  it('leaves a Kysely transaction alone until it commits', async () => {
    const pglite = new PGlite();
    const abandoned: number[] = [];
    db = new Kysely<NotesDatabase>({ dialect: new PGliteDialect(pglite, () => abandoned.push(1)) });
    await sql`create table notes (body text)`.execute(db);
    await db.transaction().execute(async (trx) => {
      await sql`insert into notes values ('kept')`.execute(trx);
    });
    const { rows } = await sql<{ body: string }>`select body from notes`.execute(db);
    expect(rows).toEqual([{ body: 'kept' }]);
    expect(abandoned).toEqual([]);
  });
});
