import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

// No maintained Kysely dialect supports PGlite 0.5 (kysely-pglite-dialect wants 0.4 and
// --legacy-peer-deps, which breaks every later npm install), so this small one reuses
// Kysely's PostgreSQL pieces and only adds the driver.

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not support streaming');
  }
}

/**
 * PGlite is one single-user backend: a transaction must own it until it ends, so the driver
 * hands the one connection to a single borrower at a time and queues the rest.
 */
class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private busy = false;
  private readonly waiting: Array<(connection: PGliteConnection) => void> = [];

  constructor(
    private readonly pglite: PGlite,
    private readonly onAbandonedTransaction?: () => void,
  ) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.connection);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    // Kysely has committed or rolled back its own transactions by now. A borrower that ran a raw
    // multi-statement script (pg-boss's `BEGIN; …; COMMIT` through exec) and failed half-way
    // leaves the one connection inside an aborted transaction, and every later query of the whole
    // API would fail with 25P02 until a restart: end it here, before the next borrower gets it.
    if (this.pglite.isInTransaction()) {
      this.onAbandonedTransaction?.();
      await this.pglite.exec('rollback');
    }
    const next = this.waiting.shift();
    if (next) next(this.connection);
    else this.busy = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    /** Told when a borrower left a transaction open (see PGliteDriver.releaseConnection). */
    private readonly onAbandonedTransaction?: () => void,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.onAbandonedTransaction);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
