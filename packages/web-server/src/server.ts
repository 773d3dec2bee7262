import { existsSync, realpathSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyHttpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ApiReads, apiReadsOptions } from './api-reads';
import { AFTER_PAINT_PATH, AFTER_PAINT_SCRIPT } from './after-paint';
import { registerShellMetrics } from './metrics';
import { pageRenderer, publicUrlOf } from './page-renderer';
import { registerRemotesRegistry } from './register-registry';
import type { RemotesRegistry } from './registry';
import { RouteSource, remotesManifest, type RemotesBody } from './remotes';
import { trustedProxies } from './canary-visitors';
import { withGivenCookie } from './render-page';
import { registerSitemapRoutes } from './sitemap';
import { registerSecurityHeaders } from './security-headers';
import { shellTelemetry } from './telemetry';

type Env = Record<string, string | undefined>;

interface CommonOptions {
  /** The app's build output: index.html, remoteEntry.js, mf-manifest.json and the chunks. */
  distDir: string;
  logger?: FastifyServerOptions['logger'];
}

export interface RemoteServerOptions extends CommonOptions {
  role: 'remote';
  /** Origins allowed to fetch this remote's manifest and chunks: the shell's. */
  allowedOrigins: string[];
}

export interface ShellServerOptions extends CommonOptions {
  role: 'shell';
  /** Where /api/* goes, e.g. http://127.0.0.1:4000. */
  apiUrl: string;
  /**
   * The environment /remotes.json is built from (see remotesManifest), and PUBLIC_URL (the
   * shop's public origin, for canonical and sharing URLs), HEAD_API_TIMEOUT_MS and
   * HEAD_CACHE_TTL_MS (see api-reads.ts).
   */
  env?: Env;
  /** Files per product sitemap; 50,000 (the most sitemaps.org allows) unless a test says less. */
  sitemapFileSize?: number;
}

export type WebServerOptions = RemoteServerOptions | ShellServerOptions;

// Content-hashed names ("main.3f9a1c2b.js") never change content, so they may be cached for
// good. Everything else must be revalidated, above all the files that point at the current
// release: a remote's mf-manifest.json and remoteEntry.js, and every index.html.
const HASHED_FILE = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;
const LONG_CACHE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** A page render at least this slow is logged with the time of each step. */
const SLOW_PAGE_MS = 1000;
/** Any response at least this slow is logged. */
const SLOW_RESPONSE_MS = 5000;
/**
 * Retry-After of a 503 page (a path no known route matches while some remote's route data is
 * not known): the route data is read again every 5 s, so a remote back up is seen well within it.
 */
const UNAVAILABLE_RETRY_AFTER_S = 60;

export function cacheControlFor(filePath: string): string {
  const name = basename(filePath);
  if (name === 'mf-manifest.json' || name === 'remoteEntry.js' || name.endsWith('.html')) return REVALIDATE;
  return HASHED_FILE.test(name) ? LONG_CACHE : REVALIDATE;
}

/** The shell's own origin on both loopback spellings, for CORS when SHELL_ORIGIN is not set. */
export function defaultShellOrigins(shellPort: number): string[] {
  return [`http://localhost:${shellPort}`, `http://127.0.0.1:${shellPort}`];
}

export function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/**
 * Builds (does not start) the server of one front end. Remotes get CORS for the shell; the
 * shell gets the /api proxy and /remotes.json. Both get compression, cache headers that let a
 * new release through on the next reload, and the SPA fallback for deep links.
 */
export async function createWebServer(options: WebServerOptions): Promise<FastifyInstance> {
  const distDir = resolve(options.distDir);
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html not found: build the app first (npm run build)`);
  }

  // Request logs come from the API; these servers log warnings and errors only (see serve.ts).
  // requestTimeout: Fastify turns Node's off; a client trickling its request must not hold a socket for ever.
  // Behind the proxy (TRUST_PROXY, read as the API reads it) request.ip is the visitor's address.
  const trustProxy = options.role === 'shell' ? trustedProxies(options.env ?? process.env) : false;
  const app = Fastify({ logger: options.logger ?? false, requestTimeout: 30_000, frameworkErrors: routerRefusal, trustProxy });

  // Tracing, when started (telemetry.ts): first, so every route gets a span per request.
  const telemetry = options.role === 'shell' ? shellTelemetry() : null;
  if (telemetry) await app.register(telemetry.fastifyPlugin);
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  await registerSecurityHeaders(app, { role: options.role, ...(options.role === 'shell' ? { env: options.env } : {}) });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });
  // Any answer this slow is worth a line: which request, and how long it took (a stalled page render
  // is told apart from a request that never reached the server).
  app.addHook('onResponse', async (request, reply) => {
    if (reply.elapsedTime >= SLOW_RESPONSE_MS) {
      request.log.warn(
        { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'slow response',
      );
    }
  });

  if (options.role === 'remote') {
    const allowed = new Set(options.allowedOrigins);
    await app.register(fastifyCors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
      methods: ['GET', 'HEAD'],
    });
  }
  // METRICS_TOKEN: Prometheus metrics at /metrics for a scraper bearing it (metrics.ts).
  if (options.role === 'shell') await registerShellMetrics(app, options.env ?? process.env);
  // REMOTES_REGISTRY: the remotes' releases, live and canary, from the release registry (registry.ts).
  const registry = options.role === 'shell' ? await registerRemotesRegistry(app, options.env ?? process.env) : null;
  if (options.role === 'shell') await registerShellRoutes(app, options, remotesFor(app, options.env ?? process.env, registry));

  const insideDist = staysInside(distDir);
  await app.register(fastifyStatic, {
    root: distDir,
    cacheControl: false,
    // The shell's pages, / included, get their head from renderPage below.
    index: options.role === 'shell' ? false : undefined,
    // .env, .git/ and the like are never part of a release, even when they end up in dist.
    dotfiles: 'ignore',
    // A symlink in dist (a build tool's cache, a mistaken deploy) must not serve files from outside it.
    // The shell's page navigations (no file extension, HTML accepted) go straight to the page,
    // without looking for a file first.
    allowedPath: (pathName, _root, request) =>
      !(options.role === 'shell' && isPageNavigation(request.method, request.url, request.headers.accept)) && insideDist(pathName),
    // Serve what is on disk now, so a remote rebuilt into this folder is live at once.
    wildcard: true,
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', cacheControlFor(filePath));
    },
  });

  const remotes = options.role === 'shell' ? remotesFor(app, options.env ?? process.env, registry) : null;
  const renderPage = options.role === 'shell' ? pageRenderer(distDir, options) : null;

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!renderPage || !remotes) return reply.header('cache-control', REVALIDATE).type('text/html').sendFile('index.html');
    const started = performance.now();
    const body = await remotes(request, reply).catch((error: unknown) => {
      request.log.error(error, 'cannot build the remotes for a page');
      return null;
    });
    const remotesMs = Math.round(performance.now() - started);
    const page = await renderPage(request.url, body);
    if (registry) await registry.countPageLoad(request, reply, page.remote);
    if (page.serverRenderFailure && page.remote) {
      request.log.warn(
        { url: request.url, remote: page.remote, reason: page.serverRenderFailure },
        'server render failed: the page renders in the browser',
      );
      if (registry) await registry.recordFailure(withGivenCookie(request, reply), page.remote);
    }
    // A page's HTML waits on nothing slow (each optional step has a deadline): say which step was.
    const timings = { remotes: remotesMs, ...page.timings, total: Math.round(performance.now() - started) };
    if (timings.total >= SLOW_PAGE_MS) request.log.warn({ url: request.url, timings }, 'slow page render');
    // Not a 404 while part of the shop is unknown: search engines keep the page and come back.
    if (page.status === 503) reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
    return reply.code(page.status).header('cache-control', REVALIDATE).type('text/html; charset=utf-8').send(page.html);
  };
  // fastify-static answers / itself unless told not to (index: false), and then with 403.
  if (renderPage) app.get('/', sendPage);

  app.setNotFoundHandler(async (request, reply) => {
    if (isPageNavigation(request.method, request.url, request.headers.accept)) return sendPage(request, reply);
    return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });

  return app;
}

/**
 * Deep links such as /product/123 are routes of the single-page app, answered with
 * index.html. A missing file (/chunk.js, /mf-manifest.json) or an API path stays a 404, so
 * a broken deploy shows up as an error and not as HTML parsed as JavaScript.
 */
function isPageNavigation(method: string, url: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split('?')[0] ?? '/';
  if (path === '/api' || path.startsWith('/api/')) return false;
  if (/\.[a-z0-9]+$/i.test(path)) return false;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * The visitor's remotes and their route data (= GET /remotes.json): from the release registry
 * when it is on (live release or the visitor's canary, with the routes that release recorded),
 * else from the default locations (REMOTES_MANIFEST, MF_*_URL) and each remote's routes.json.
 * The server reads route data, never the browser: a shopper's browser learns that /admin exists
 * without a request to the admin remote's origin.
 */
const remoteSources = new WeakMap<FastifyInstance, (request: FastifyRequest, reply: FastifyReply) => Promise<RemotesBody>>();

function remotesFor(app: FastifyInstance, env: Env, registry: RemotesRegistry | null) {
  let remotes = remoteSources.get(app);
  if (remotes) return remotes;
  const source = new RouteSource({
    env,
    ...(registry ? { fromRelease: (mfName: string, url: string) => registry.releaseRoutes(mfName, url) } : {}),
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  remotes = async (request, reply) => {
    const manifest = registry ? await registry.manifestFor(request, reply) : await remotesManifest(env);
    return { remotes: manifest, ...(await source.routesFor(manifest)) };
  };
  remoteSources.set(app, remotes);
  // Read the default remotes' route data once at start, so the first visitor does not wait for it.
  app.addHook('onReady', async () => {
    void remotesManifest(env).then(
      (manifest) => source.routesFor(manifest),
      () => undefined,
    );
  });
  return remotes;
}

async function registerShellRoutes(
  app: FastifyInstance,
  options: ShellServerOptions,
  remotes: (request: FastifyRequest, reply: FastifyReply) => Promise<RemotesBody>,
): Promise<void> {
  const env = options.env ?? process.env;

  registerSitemapRoutes(app, {
    publicUrl: publicUrlOf(env),
    api: new ApiReads(apiReadsOptions(options.apiUrl, env)),
    ...(options.sitemapFileSize ? { fileSize: options.sitemapFileSize } : {}),
  });

  // The script that starts a server-rendered page's own scripts once it has loaded (after-paint.ts).
  app.get(AFTER_PAINT_PATH, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=31536000, immutable').type('text/javascript; charset=utf-8').send(AFTER_PAINT_SCRIPT),
  );

  app.get('/remotes.json', async (request, reply) => {
    try {
      return await reply.header('cache-control', REVALIDATE).send(await remotes(request, reply));
    } catch (error) {
      request.log.error(error, 'cannot build /remotes.json');
      return reply.code(500).send({ error: { code: 'INTERNAL', message: 'Internal server error' } });
    }
  });

  // One origin for the browser: the session and csrf cookies the API sets are first-party
  // cookies of the shop, and pass through untouched in both directions.
  await app.register(fastifyHttpProxy, {
    upstream: options.apiUrl,
    prefix: '/api',
    rewritePrefix: '/api',
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-host': request.headers.host ?? '',
        'x-forwarded-proto': request.protocol,
        'x-forwarded-for': [request.headers['x-forwarded-for'], request.ip].filter(Boolean).join(', '),
      }),
      onError: (reply, { error }) => {
        reply.log.error(error, 'API unreachable');
        void reply
          .code(502)
          .header('content-type', 'application/json')
          .send({ error: { code: 'API_UNAVAILABLE', message: 'The shop is unavailable right now' } });
      },
    },
  });
}

/**
 * The router's own refusals (a malformed percent-encoding, an over-long parameter) in the shop's
 * error shape; Fastify's default body echoes the path back.
 */
function routerRefusal(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.code(400).send({ error: { code: 'BAD_URL', message: 'The address of this request is not valid' } });
  } else {
    reply.code(error.statusCode ?? 400).send({ error: { code: 'BAD_REQUEST', message: 'Bad request' } });
  }
}

/** For @fastify/static's allowedPath: the file, symlinks resolved, is still inside dist. */
function staysInside(distDir: string): (pathName: string) => boolean {
  const root = realpathSync(distDir);
  return (pathName) => {
    let real: string;
    try {
      real = realpathSync(join(root, pathName));
    } catch {
      return true; // missing: @fastify/static answers 404 itself
    }
    return real === root || real.startsWith(`${root}${sep}`);
  };
}
