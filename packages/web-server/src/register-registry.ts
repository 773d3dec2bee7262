import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  FileRegistryStore,
  KNOWN_REMOTES,
  REPLICA_NAME,
  assertEnvironment,
  isReleaseId,
  isReleasePath,
  previewSecretOf,
  type RegistryStore,
} from '@boatshop/release-registry';
import type { FastifyInstance } from 'fastify';
import { canaryCookieKey, checkCanaryCookieSecret } from './canary-visitors';
import { defaultReplicaName, IMMUTABLE, REMOTE_OF_MF_NAME, RemotesRegistry, type Env } from './registry';
import { registryStoreOf } from './release-files';

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
 * With a registry (REMOTES_REGISTRY, or REGISTRY_STORE=s3 and its bucket): the route of the
 * published releases (unless REMOTES_RELEASES_URL points elsewhere, e.g. a CDN, whose origin then
 * belongs in CSP_EXTRA_ORIGINS) and the registry reader. Without one: null, and nothing changes.
 */
export async function registerRemotesRegistry(app: FastifyInstance, env: Env): Promise<RemotesRegistry | null> {
  const store = registryStoreOf(env);
  if (!store) return null;
  const environment = assertEnvironment(env.REMOTES_ENV || 'production');
  const ttlMs = env.REMOTES_REGISTRY_TTL_MS === undefined ? 2_000 : Number(env.REMOTES_REGISTRY_TTL_MS);
  if (!Number.isFinite(ttlMs) || ttlMs < 0)
    throw new Error(`REMOTES_REGISTRY_TTL_MS must be a number of milliseconds, got "${env.REMOTES_REGISTRY_TTL_MS}"`);
  const baseUrl = (env.REMOTES_RELEASES_URL || '/releases').replace(/\/+$/, '');
  if (baseUrl === '/releases') await serveReleases(app, store);
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
    previewSecret: () => previewSecretOf(store, env),
    canaryKey: () =>
      canaryCookieKey(
        env,
        () => previewSecretOf(store, env),
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

/**
 * GET /releases/<remote>/<id>/<file>: the published files, which never change (the id names
 * the content), so they are cached for good. From the registry's folder as static files, or
 * streamed from its bucket; anything that is not a published file is a 404.
 */
async function serveReleases(app: FastifyInstance, store: RegistryStore): Promise<void> {
  if (store instanceof FileRegistryStore) {
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
    return;
  }
  app.get('/releases/*', async (request, reply) => {
    const [remote = '', id = '', ...rest] = (request.params as { '*': string })['*'].split('/');
    const file = rest.join('/');
    const notFound = () => reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such release file' } });
    if (!Object.hasOwn(KNOWN_REMOTES, remote) || !isReleaseId(id) || !isReleasePath(file)) return notFound();
    let found;
    try {
      found = await store.readReleaseFile(remote, id, file);
    } catch (error) {
      request.log.error(error, 'release registry: cannot read a release file from the bucket');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: { code: 'UNAVAILABLE', message: 'Release storage is unavailable' } });
    }
    if (!found) return notFound();
    reply.header('cache-control', IMMUTABLE).type(found.contentType);
    if (found.length !== null) reply.header('content-length', found.length);
    // A HEAD gets the same headers; Fastify drains the body unsent.
    return reply.send(found.body);
  });
}
