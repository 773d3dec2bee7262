import { resolve, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { FileRegistryStore, REPLICA_NAME, assertEnvironment, previewSecret } from '@boatshop/release-registry';
import type { FastifyInstance } from 'fastify';
import { canaryCookieKey, checkCanaryCookieSecret } from './canary-visitors';
import { defaultReplicaName, IMMUTABLE, REMOTE_OF_MF_NAME, RemotesRegistry, type Env } from './registry';

// The shell server's side of the release registry: the published releases' static route, the
// registry reader, and the shell's reports of remote failures.

/** At most `limit` reports per client address and minute, and `globalLimit` in all. */
export class ReportLimiter {
  private window = 0;
  private readonly counts = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly limit = 20,
    private readonly globalLimit = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  allow(key: string): boolean {
    const window = Math.floor(this.now() / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
      this.total = 0;
    }
    const count = this.counts.get(key) ?? 0;
    if (count >= this.limit || this.total >= this.globalLimit) return false;
    this.counts.set(key, count + 1);
    this.total += 1;
    return true;
  }
}

/**
 * With REMOTES_REGISTRY set: the static route of the published releases (unless
 * REMOTES_RELEASES_URL points elsewhere, e.g. a CDN, whose origin then belongs in
 * CSP_EXTRA_ORIGINS) and the registry reader. Without it: null, and nothing changes.
 */
export async function registerRemotesRegistry(app: FastifyInstance, env: Env): Promise<RemotesRegistry | null> {
  if (!env.REMOTES_REGISTRY) return null;
  const store = new FileRegistryStore(resolve(env.REMOTES_REGISTRY));
  const environment = assertEnvironment(env.REMOTES_ENV || 'production');
  const ttlMs = env.REMOTES_REGISTRY_TTL_MS === undefined ? 2_000 : Number(env.REMOTES_REGISTRY_TTL_MS);
  if (!Number.isFinite(ttlMs) || ttlMs < 0)
    throw new Error(`REMOTES_REGISTRY_TTL_MS must be a number of milliseconds, got "${env.REMOTES_REGISTRY_TTL_MS}"`);
  const baseUrl = (env.REMOTES_RELEASES_URL || '/releases').replace(/\/+$/, '');
  if (baseUrl === '/releases') {
    // Release folders are named by version and content hash and never change: cache for good.
    await app.register(fastifyStatic, {
      root: join(store.root, 'releases'),
      prefix: '/releases/',
      decorateReply: false,
      index: false,
      dotfiles: 'ignore',
      cacheControl: false,
      wildcard: true,
      setHeaders: (res) => {
        res.setHeader('cache-control', IMMUTABLE);
      },
    });
  }
  const flushMs = env.REMOTES_COUNTS_FLUSH_MS === undefined ? 5_000 : Number(env.REMOTES_COUNTS_FLUSH_MS);
  if (!Number.isInteger(flushMs) || flushMs < 0)
    throw new Error(`REMOTES_COUNTS_FLUSH_MS must be a whole number of milliseconds, got "${env.REMOTES_COUNTS_FLUSH_MS}"`);
  const replica = env.REMOTES_REPLICA_ID || defaultReplicaName();
  if (!REPLICA_NAME.test(replica))
    throw new Error(`REMOTES_REPLICA_ID must be letters, digits, '.', '_' or '-' (at most 64), got "${env.REMOTES_REPLICA_ID}"`);
  checkCanaryCookieSecret(env);
  const registry = new RemotesRegistry(store, {
    environment,
    baseUrl,
    ttlMs,
    env,
    log: (error) => app.log.error(error, 'release registry: cannot read or write; serving the last good state'),
    warn: (message) => app.log.warn(message),
    replica,
    flushMs,
    previewSecret: () => previewSecret(store.root, env),
    canaryKey: () =>
      canaryCookieKey(
        env,
        () => previewSecret(store.root, env),
        (message) => app.log.warn(message),
      ),
  });
  // The last counts reach the registry when the server stops.
  app.addHook('onClose', async () => registry.flush());

  // The shell's reports of remote failures (shell/src/remotes/report-failure.ts): the MF name
  // only, no URL, message or user; the release is the one this visitor's cookie gets.
  const perMinute = env.REMOTE_FAILURES_PER_MINUTE === undefined ? 20 : Number(env.REMOTE_FAILURES_PER_MINUTE);
  if (!Number.isInteger(perMinute) || perMinute < 1)
    throw new Error(`REMOTE_FAILURES_PER_MINUTE must be a positive whole number, got "${env.REMOTE_FAILURES_PER_MINUTE}"`);
  const limiter = new ReportLimiter(perMinute, Math.max(1_000, perMinute));
  app.post('/remote-failures', { bodyLimit: 256 }, async (request, reply) => {
    // Same origin only (sendBeacon sends Origin): another site cannot vote a canary out.
    const origin = request.headers.origin;
    if (origin && origin !== 'null' && URL.canParse(origin) && new URL(origin).host !== request.headers.host) {
      return reply.code(403).send({ error: { code: 'FORBIDDEN', message: 'Reports come from the shop itself' } });
    }
    if (!limiter.allow(request.ip)) {
      return reply.code(429).send({ error: { code: 'RATE_LIMITED', message: 'Too many reports, try again in a minute' } });
    }
    const body = request.body as unknown;
    const valid =
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length === 1 &&
      typeof (body as { remote?: unknown }).remote === 'string';
    const mfName = valid ? (body as { remote: string }).remote : '';
    if (!REMOTE_OF_MF_NAME.has(mfName)) {
      return reply.code(400).send({ error: { code: 'VALIDATION', message: 'Expected { "remote": <MF name of a remote> }' } });
    }
    await registry.recordFailure(request, mfName);
    return reply.code(204).send();
  });
  return registry;
}
