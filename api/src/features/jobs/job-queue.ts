import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { JobsConfig } from '../../config.js';
import type { Database } from '../../db/database.js';

// The job queue behind one small interface: pg-boss 10 (the last line on Node 20) on PostgreSQL
// with its own pool, and on the embedded PGlite through pg-boss's custom `db` option.

export interface QueueCounts {
  name: string;
  waiting: number;
  active: number;
  failed: number;
  completed: number;
}

export interface JobQueue {
  /** Adds a job; the same `id` twice is one job (pg-boss inserts with ON CONFLICT DO NOTHING). */
  send(queue: string, data: object, options?: { id?: string }): Promise<string | null>;
  /** Runs `handler` for each job; a throw is a failed attempt, retried with backoff. */
  work(queue: string, handler: (data: Record<string, unknown>) => Promise<void>): Promise<void>;
  /** A job on `cron` (UTC), once across all API processes. */
  schedule(queue: string, cron: string): Promise<void>;
  counts(): Promise<QueueCounts[]>;
  /** Fails (or schedules for retry) the jobs active past their queue's expiry now, as the periodic maintenance does. */
  expireOverdue(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How often one process (pg-boss locks it) looks for jobs active past their expiry: a job taken by
 * a process that died is retried at most this long after its expiry (pg-boss's default is 120 s).
 */
export const MAINTENANCE_INTERVAL_SECONDS = 30;

export const SCHEMA = 'pgboss';

interface ExecuteSql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss's statements on PGlite: through Kysely's connection, so they take turns with the app's
 * queries and transactions on PGlite's one connection (else they would run inside whatever
 * transaction is open). Scripts without parameters hold several statements: `exec`, and the rows
 * of every statement, as pg-boss expects of a custom db.
 */
function pgliteAdapter(db: Kysely<Database>, pglite: PGlite): ExecuteSql {
  return {
    executeSql(text, values) {
      return db.connection().execute(async (connection) => {
        if (!values || values.length === 0) {
          const results = await pglite.exec(text);
          return { rows: results.flatMap((result) => result.rows) };
        }
        const result = await connection.executeQuery(CompiledQuery.raw(text, values));
        return { rows: result.rows };
      });
    },
  };
}

export async function startJobQueue(options: {
  db: Kysely<Database>;
  pglite: PGlite | null;
  databaseUrl: string | null;
  config: JobsConfig;
  log: FastifyBaseLogger;
  /**
   * Per queue: seconds a job may stay active before it counts as abandoned (its process died) and
   * is retried. pg-boss's default is 15 minutes.
   */
  expireInSeconds?: Readonly<Record<string, number>>;
}): Promise<JobQueue> {
  const { config, log } = options;
  const common = { schema: SCHEMA, maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS };
  const boss = options.pglite
    ? new PgBoss({ ...common, db: pgliteAdapter(options.db, options.pglite) } as PgBoss.ConstructorOptions)
    : new PgBoss({ ...common, connectionString: options.databaseUrl!, max: 3, application_name: 'boatshop-jobs' });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  const db: ExecuteSql = options.pglite
    ? pgliteAdapter(options.db, options.pglite)
    : { executeSql: (text, values) => (boss.getDb() as unknown as ExecuteSql).executeSql(text, values) };

  const created = new Set<string>();
  async function ensureQueue(name: string): Promise<void> {
    if (created.has(name)) return;
    const expireInSeconds = options.expireInSeconds?.[name];
    const settings = {
      name,
      retryLimit: config.retryLimit,
      retryDelay: config.retryDelaySeconds,
      retryBackoff: true,
      ...(expireInSeconds ? { expireInSeconds } : {}),
    } as PgBoss.Queue;
    await boss.createQueue(name, settings);
    // createQueue leaves a queue that exists as it was: a database made before a setting changed gets it too.
    await boss.updateQueue(name, settings);
    created.add(name);
  }

  return {
    async send(queue, data, sendOptions = {}) {
      await ensureQueue(queue);
      return boss.send(queue, data, sendOptions.id ? { id: sendOptions.id } : {});
    },
    async work(queue, handler) {
      await ensureQueue(queue);
      await boss.work<Record<string, unknown>>(
        queue,
        { pollingIntervalSeconds: config.pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) {
            try {
              await handler(job.data);
            } catch (err) {
              // One line per failed attempt, for operators; pg-boss retries it with backoff.
              log.warn({ err, queue, jobId: job.id, attempt: job.retryCount + 1, retryLimit: job.retryLimit }, 'job attempt failed');
              throw err;
            }
          }
        },
      );
    },
    async schedule(queue, cron) {
      await ensureQueue(queue);
      await boss.schedule(queue, cron, {}, { tz: 'UTC' });
    },
    async counts() {
      const { rows } = await db.executeSql(
        `select name, state, count(*)::int as size from ${SCHEMA}.job where name not like '\\_\\_pgboss%' group by name, state`,
        [],
      );
      const byName = new Map<string, QueueCounts>();
      for (const name of created) byName.set(name, { name, waiting: 0, active: 0, failed: 0, completed: 0 });
      for (const row of rows as { name: string; state: string; size: number }[]) {
        const counts = byName.get(row.name) ?? { name: row.name, waiting: 0, active: 0, failed: 0, completed: 0 };
        const size = Number(row.size);
        if (row.state === 'created' || row.state === 'retry') counts.waiting += size;
        else if (row.state === 'active') counts.active += size;
        else if (row.state === 'failed') counts.failed += size;
        else if (row.state === 'completed') counts.completed += size;
        byName.set(row.name, counts);
      }
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    async expireOverdue() {
      await boss.expire();
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 } as PgBoss.StopOptions);
    },
  };
}
