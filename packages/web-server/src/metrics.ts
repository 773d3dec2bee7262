import { timingSafeEqual } from 'node:crypto';
import { assertEnvironment } from '@boatshop/release-registry';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { registryStoreOf } from './release-files';

type Env = Record<string, string | undefined>;

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Prometheus metrics of one shell replica at GET /metrics, only for a scraper bearing
 * METRICS_TOKEN (unset: no route at all). Requests and latency per route pattern (page renders
 * and the /api proxy included), 5xx answers, Node's own metrics, and with a release registry (REMOTES_REGISTRY or REGISTRY_STORE=s3) the
 * canary's page loads and failures per remote and release as every replica last wrote them, from
 * which Prometheus computes failure rates.
 */
export async function registerShellMetrics(app: FastifyInstance, env: Env): Promise<Registry | null> {
  const token = env.METRICS_TOKEN?.trim();
  if (!token) return null;
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
    help: 'Answers with a 5xx status (502: API unreachable through the proxy)',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc({ method: request.method, route, status: String(reply.statusCode) });
  });

  const store = registryStoreOf(env);
  if (store) {
    const environment = assertEnvironment(env.REMOTES_ENV || 'production');
    const readCounts = () => store.readCounts(environment).catch(() => ({}) as Awaited<ReturnType<typeof store.readCounts>>);
    new Gauge({
      name: 'remote_page_loads',
      help: 'Page loads per remote and release, summed over the replicas as last written to the registry',
      labelNames: ['remote', 'release'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const [remote, releases] of Object.entries(await readCounts()))
          for (const [release, tally] of Object.entries(releases)) this.set({ remote, release }, tally.served);
      },
    });
    new Gauge({
      name: 'remote_failures',
      help: 'Failures reported by visitors per remote and release (canary failure rate = failures / page loads)',
      labelNames: ['remote', 'release'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const [remote, releases] of Object.entries(await readCounts()))
          for (const [release, tally] of Object.entries(releases)) this.set({ remote, release }, tally.failures);
      },
    });
  }

  app.get('/metrics', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    if (!sameSecret(header.startsWith('Bearer ') ? header.slice(7) : '', token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: { code: 'UNAUTHORIZED', message: 'A valid metrics token is required' } });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}
