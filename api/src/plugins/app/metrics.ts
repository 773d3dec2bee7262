import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics (GET /api/metrics). */
    metrics: Registry;
  }
}

/** Seconds: from a fast cached page to a slow checkout against the payment provider. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from the provider's event to its webhook being handled: retries come minutes apart. */
const LAG_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600];

/**
 * Prometheus metrics of one API replica, in a registry of its own (a test may run several apps):
 * requests and latency per route (the route's pattern, never the raw URL, so ids do not explode
 * the series), 5xx errors by code, the job queue's depth and oldest waiting job, the outbox's
 * backlog, webhook lag, the database pool, and Node's own (event loop, memory, GC). The queue,
 * outbox and pool are read when Prometheus scrapes, not on every request.
 */
export default fp(
  async (fastify) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const requests = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route pattern, method and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route pattern and method',
      labelNames: ['method', 'route'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    const errors = new Counter({
      name: 'http_request_errors_total',
      help: 'Answers with a 5xx status, by route pattern and status (503: database down or load shed)',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    const webhookLag = new Histogram({
      name: 'payment_webhook_lag_seconds',
      help: "From the provider's event (its `created`) to the webhook handled here",
      buckets: LAG_BUCKETS,
      registers: [registry],
    });

    fastify.addHook('onResponse', async (request, reply) => {
      // Unmatched paths share one label: a scanner must not create a series per URL.
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      requests.inc({ method: request.method, route, status: String(status) });
      duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      if (status >= 500) errors.inc({ method: request.method, route, status: String(status) });
      if (route === '/api/payments/webhook' && status < 300) {
        const created = webhookCreatedAt(request.body);
        if (created !== null) webhookLag.observe(Math.max(0, Date.now() / 1000 - created));
      }
    });

    const queueDepth = new Gauge({
      name: 'job_queue_depth',
      help: 'Jobs per queue and state (waiting, active, failed)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const counts of await fastify.jobs.counts().catch(() => [])) {
          this.set({ queue: counts.name, state: 'waiting' }, counts.waiting);
          this.set({ queue: counts.name, state: 'active' }, counts.active);
          this.set({ queue: counts.name, state: 'failed' }, counts.failed);
        }
      },
    });
    const oldestJob = new Gauge({
      name: 'job_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting to start, per queue (0 when none waits)',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        if (!fastify.jobs.queue) return;
        const rows = await sql<{ name: string; age: number }>`
          select name, extract(epoch from now() - min(created_on))::float8 as age
          from pgboss.job where state in ('created', 'retry') and start_after <= now() and name not like '\\_\\_pgboss%'
          group by name`
          .execute(fastify.db)
          .then((result) => result.rows)
          .catch(() => []);
        for (const row of rows) this.set({ queue: row.name }, Number(row.age));
      },
    });
    const outbox = new Gauge({
      name: 'outbox_backlog',
      help: 'Messages written but not yet sent, and the age in seconds of the oldest',
      labelNames: ['measure'] as const,
      registers: [registry],
      async collect() {
        const row = await sql<{ unsent: number; age: number | null }>`
          select count(*)::int as unsent, extract(epoch from now() - min(created_at))::float8 as age
          from outbox where sent_at is null`
          .execute(fastify.db)
          .then((result) => result.rows[0])
          .catch(() => undefined);
        if (!row) return;
        this.set({ measure: 'messages' }, Number(row.unsent));
        this.set({ measure: 'oldest_seconds' }, Number(row.age ?? 0));
      },
    });
    const pool = new Gauge({
      name: 'db_pool_connections',
      help: "The PostgreSQL pool's connections: total open, idle, and requests waiting for one",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const pg = fastify.dbPool;
        if (!pg) return;
        this.set({ state: 'total' }, pg.totalCount);
        this.set({ state: 'idle' }, pg.idleCount);
        this.set({ state: 'waiting' }, pg.waitingCount);
      },
    });
    const poolMax = new Gauge({
      name: 'db_pool_max_connections',
      help: 'DATABASE_POOL_SIZE: the most connections this replica opens for requests',
      registers: [registry],
    });
    poolMax.set(fastify.config.database.poolSize);
    void [queueDepth, oldestJob, outbox, pool];

    fastify.decorate('metrics', registry);
  },
  { name: 'metrics', dependencies: ['database', 'jobs'] },
);

/** The provider event's `created` (Unix seconds) from the webhook's body, raw or parsed. */
function webhookCreatedAt(body: unknown): number | null {
  let event = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      event = JSON.parse(body.toString());
    } catch {
      return null;
    }
  }
  const created = (event as { created?: unknown } | null)?.created;
  return typeof created === 'number' && Number.isFinite(created) ? created : null;
}
