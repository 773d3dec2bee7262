import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  CANARY_COOKIE,
  FileRegistryStore,
  KNOWN_REMOTES,
  RELEASE_ID,
  assertEnvironment,
  hasCanary,
  isVisitorSeed,
  manifestForVisitor,
  newVisitorSeed,
  type EnvironmentState,
  type RegistryStore,
} from '@boatshop/release-registry';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { remotesManifest, type RemotesManifest } from './remotes';

type Env = Record<string, string | undefined>;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/**
 * The shell's side of the release registry (packages/release-registry), on when REMOTES_REGISTRY
 * names its folder: /remotes.json and the page data block name, per remote, the release that is
 * live in REMOTES_ENV (default production), or its canary for the visitors whose cookie falls in
 * the canary's share; the published files are served under /releases/ with immutable caching.
 * The environment is re-read at most every REMOTES_REGISTRY_TTL_MS (2 s), so a promotion or a
 * rollback reaches every replica on its next page load. A remote never released there keeps its
 * default URL (REMOTES_MANIFEST or MF_*_URL, see remotes.ts).
 */
export class RemotesRegistry {
  private cached: { state: EnvironmentState; until: number } | null = null;
  private loading: Promise<EnvironmentState> | null = null;
  private readonly secureCookie: boolean;

  constructor(
    private readonly store: RegistryStore,
    private readonly options: { environment: string; baseUrl: string; ttlMs: number; env: Env; log?: (error: unknown) => void },
  ) {
    this.secureCookie = (options.env.PUBLIC_URL ?? '').startsWith('https:');
  }

  /** The environment's state, cached; a broken file keeps the last good state (and is logged). */
  async state(): Promise<EnvironmentState> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.state;
    this.loading ??= this.store
      .read(this.options.environment)
      .then(
        (state) => {
          this.cached = { state, until: Date.now() + this.options.ttlMs };
          return state;
        },
        (error: unknown) => {
          if (!this.cached) throw error;
          this.options.log?.(error);
          this.cached = { state: this.cached.state, until: Date.now() + this.options.ttlMs };
          return this.cached.state;
        },
      )
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /**
   * /remotes.json for this visitor. While a canary runs, a visitor without the cookie is given
   * a random seed (no personal data) that decides, for as long as that canary lasts, which side
   * they are on: a shopper never flips between releases within a visit.
   */
  async manifestFor(request: FastifyRequest, reply: FastifyReply): Promise<RemotesManifest> {
    const [state, defaults] = await Promise.all([this.state(), remotesManifest({ ...this.options.env, REMOTES_REGISTRY: undefined })]);
    let seed = readCookie(request.headers.cookie, CANARY_COOKIE);
    if (!isVisitorSeed(seed)) seed = null;
    if (hasCanary(state)) {
      if (!seed) {
        seed = newVisitorSeed();
        reply.header(
          'set-cookie',
          `${CANARY_COOKIE}=${seed}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly${this.secureCookie ? '; Secure' : ''}`,
        );
      }
      reply.header('vary', 'Cookie');
    }
    return { ...defaults, ...manifestForVisitor(state, { baseUrl: this.options.baseUrl, seed }) };
  }
}

export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
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
  if (!Number.isFinite(ttlMs) || ttlMs < 0) throw new Error(`REMOTES_REGISTRY_TTL_MS must be a number of milliseconds, got "${env.REMOTES_REGISTRY_TTL_MS}"`);
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
  return new RemotesRegistry(store, { environment, baseUrl, ttlMs, env, log: (error) => app.log.error(error, 'cannot read the release registry; serving the last good state') });
}

/**
 * A release's mf-manifest.json read from the registry's disk, for the page's first-paint hints
 * (first-paint.ts fetches only absolute manifest URLs): `/releases/<remote>/<id>/mf-manifest.json`
 * when the shell serves the releases itself, else null.
 */
export async function readReleaseManifest(env: Env, url: string): Promise<unknown> {
  if (!env.REMOTES_REGISTRY || (env.REMOTES_RELEASES_URL || '/releases').replace(/\/+$/, '') !== '/releases') return null;
  const match = /^\/releases\/([a-z-]+)\/([^/]+)\/mf-manifest\.json$/.exec(url);
  if (!match || !Object.hasOwn(KNOWN_REMOTES, match[1]!) || !RELEASE_ID.test(match[2]!)) return null;
  try {
    return JSON.parse(await readFile(join(resolve(env.REMOTES_REGISTRY), 'releases', match[1]!, match[2]!, 'mf-manifest.json'), 'utf8')) as unknown;
  } catch {
    return null;
  }
}
