import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import vm from 'node:vm';
import { LRUCache } from 'lru-cache';
import type { ReactNode } from 'react';
import {
  SERVER_PAGES_FILE,
  SERVER_SHARED_MODULES,
  type HydratablePages,
  type ServerFrame,
  type ServerPageData,
  type ServerRenderInput,
} from '@boatshop/web-shared/server-pages';
import { readReleaseText } from './release-files';

type Env = Record<string, string | undefined>;

/** The module wrapper of a server build, compiled once per build and called once per render. */
type ModuleFunction = (exports: object, require: (id: string) => unknown, module: { exports: unknown }) => void;

export interface ServerRenderOptions {
  env: Env;
  /** How long a remote's server render may take, its build's loading included (SSR_DEADLINE_MS). */
  deadlineMs: number;
  /** How many compiled server builds are kept (SSR_MAX_BUILDS); the least recently used goes first. */
  maxBuilds: number;
  /** How long a server build read over http(s) (a remote's own server, not a release) is reused. */
  httpTtlMs: number;
  /**
   * How long a rendered page is reused for the same build and URL (SSR_CACHE_TTL_MS; 0: never):
   * nothing personal is rendered on the server, so every visitor gets the same HTML, as stale as
   * the API reads' cache allows.
   */
  cacheTtlMs: number;
  /** How many rendered pages are kept (SSR_CACHE_MAX_ENTRIES). */
  cacheMaxEntries: number;
}

export function serverRenderOptions(env: Env): ServerRenderOptions {
  const number = (name: string, fallback: number, min: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isInteger(value) && value >= min ? value : fallback;
  };
  return {
    env,
    deadlineMs: number('SSR_DEADLINE_MS', 300, 1),
    maxBuilds: number('SSR_MAX_BUILDS', 8, 1),
    httpTtlMs: number('SSR_HTTP_TTL_MS', 5_000, 0),
    cacheTtlMs: number('SSR_CACHE_TTL_MS', 30_000, 0),
    cacheMaxEntries: number('SSR_CACHE_MAX_ENTRIES', 500, 1),
  };
}

/**
 * How a remote page's server render went: its HTML; `skipped` when there is nothing to render on
 * the server (the release has no server build, or it does not render this page), which is not a
 * failure; `failed` when the build threw, was not valid or passed its deadline: the page is then
 * rendered in the browser as before, and the failure counts against the release.
 */
export type ServerRenderOutcome = { html: string } | { skipped: string } | { failed: string };

/**
 * A page's render inside the shell's frame: `hydratable` when it is the shell's frame around the
 * remote page (it goes into #root and the browser hydrates it with `data`), else the remote page
 * alone (a release or a shell built before hydration: for visitors without JavaScript only).
 */
export type FramedRenderOutcome = { html: string; hydratable: boolean; data: ServerPageData } | { skipped: string } | { failed: string };

/** What the shell's frame needs besides the remote page: its own build, and the visitor's route data. */
export interface FrameOptions {
  /** The shell's server build (`<shell dist>/server/pages.cjs`). */
  file: string;
  /** The remote page's MF name (`mf_catalog`). */
  remote: string;
  routes: Record<string, unknown>;
  unavailable: readonly string[];
}

class DeadlineError extends Error {}

let sharedModules: Promise<Map<string, unknown>> | null = null;

/**
 * Renders remote pages on the shell's server from each release's server build (docs/server-rendering.md).
 * A build is read from the release registry's disk (`/releases/<remote>/<id>/server/pages.cjs`)
 * or, for a remote not released there, from its server beside its mf-manifest.json; it is
 * compiled once and kept in a bounded LRU, so builds of releases no longer served are evicted.
 * Each render evaluates the build afresh (a new module scope: the page's stores belong to this
 * render alone) with the server's own shared singletons (one React), and React's streaming
 * renderer; past the deadline the render is aborted.
 */
export class ServerRenderer {
  /** manifest URL → its compiled build (`fn` null: that release has none). */
  private readonly builds: LRUCache<string, { fn: ModuleFunction | null }>;

  /** `<manifest URL> <url>` → the page's HTML, rendered from that build (and, framed, the data it was rendered from). */
  private readonly rendered: LRUCache<string, { html: string; hydratable?: boolean; data?: ServerPageData }> | null;

  constructor(private readonly options: ServerRenderOptions) {
    this.rendered = options.cacheTtlMs > 0 ? new LRUCache({ max: options.cacheMaxEntries, ttl: options.cacheTtlMs }) : null;
    this.builds = new LRUCache<string, { fn: ModuleFunction | null }>({
      max: options.maxBuilds,
      // A remote's own server may be rebuilt in place: past its TTL its build is read again in
      // the background while renders go on with the one held. A failed read is not kept.
      allowStale: true,
      fetchMethod: async (manifestUrl) => {
        const code = await this.load(manifestUrl);
        return { fn: code === null ? null : compile(code, manifestUrl) };
      },
    });
  }

  /** Whether the build beside `manifestUrl` is held and exists (it renders pages here); false when not known yet. */
  rendersFrom(manifestUrl: string): boolean {
    return typeof this.builds.peek(manifestUrl, { allowStale: true })?.fn === 'function';
  }

  /** How many compiled builds are held. */
  get heldBuilds(): number {
    return this.builds.size;
  }

  /**
   * Loads the shared modules now rather than on the first page (their first import is slow on a
   * busy machine).
   */
  warmUp(): Promise<void> {
    return this.sharedModules().then(
      () => undefined,
      () => undefined,
    );
  }

  async render(manifestUrl: string, input: ServerRenderInput): Promise<ServerRenderOutcome> {
    const key = `${manifestUrl} ${input.module} ${input.url}`;
    const cached = this.rendered?.get(key);
    if (cached !== undefined) return { html: cached.html };
    const outcome = await this.withDeadline([manifestUrl], (shared, [build], signal) => this.renderWith(build!, shared, input, signal));
    if ('html' in outcome) this.rendered?.set(key, { html: outcome.html });
    return outcome;
  }

  /**
   * The page in the shell's frame for hydration: the remote build's `page` gives its component
   * (its stores set from `input.data`), the shell's build the frame around it, rendered as one
   * tree. A remote release without `page`, or a shell without a server build, gives the remote
   * page alone (not hydratable). The HTML is kept with the data it was rendered from, so the page
   * data block always matches the HTML it goes with.
   */
  async renderInFrame(manifestUrl: string, input: ServerRenderInput, frame: FrameOptions): Promise<FramedRenderOutcome> {
    const routesKey = createHash('sha1')
      .update(JSON.stringify([frame.routes, frame.unavailable]))
      .digest('base64url');
    // Keyed by the data too: a page is reused only while the API answers the same, so a change of
    // price or stock shows at once (the API's cache is emptied on the catalogue's change notifications).
    const dataKey = createHash('sha1').update(JSON.stringify(input.data)).digest('base64url');
    const key = `${frame.file} ${routesKey} ${dataKey} ${manifestUrl} ${input.module} ${input.url}`;
    const cached = this.rendered?.get(key);
    if (cached !== undefined) return { html: cached.html, hydratable: cached.hydratable ?? false, data: cached.data ?? null };
    const frameKey = `file:${frame.file}`;
    const outcome = await this.withDeadline([manifestUrl, frameKey], async (shared, [build, shell], signal) => {
      const pages = this.evaluate(build!, shared) as HydratablePages;
      if (!pages.modules.includes(input.module)) return { skipped: `the server build does not render ${input.module}` };
      if (typeof pages.page !== 'function' || !shell) {
        const alone = await this.renderWith(build!, shared, input, signal);
        return 'html' in alone ? { html: alone.html, hydratable: false, data: input.data } : alone;
      }
      const page = pages.page(input);
      if (!page) return { skipped: 'the server build rendered nothing for this page' };
      const shellFrame = this.evaluate(shell, shared, true) as unknown as Partial<ServerFrame>;
      if (shellFrame.schema !== 1 || typeof shellFrame.render !== 'function')
        throw new Error('the shell’s server build does not export { schema: 1, render }');
      const element = shellFrame.render({
        url: input.url,
        routes: frame.routes,
        unavailable: frame.unavailable,
        page: { remote: frame.remote, module: input.module, component: page.component },
      });
      if (element === null || element === undefined) return { skipped: 'the shell’s frame rendered nothing for this page' };
      return { html: await this.stream(element as ReactNode, shared, signal), hydratable: true, data: input.data };
    });
    if ('html' in outcome) this.rendered?.set(key, { html: outcome.html, hydratable: outcome.hydratable, data: outcome.data });
    return outcome;
  }

  /**
   * Loads the builds (`keys`: manifest URLs of releases, or `file:<path>`) and the shared modules,
   * then renders, all within the deadline: past it the render is aborted and failed; a build (or
   * the shared modules) still loading at the deadline makes the page skipped, not failed. The
   * first build must exist (else skipped); the others are given as null when absent.
   */
  private async withDeadline<T extends object>(
    keys: string[],
    renderWith: (shared: Map<string, unknown>, builds: (ModuleFunction | null)[], signal: AbortSignal) => Promise<T | { skipped: string }>,
  ): Promise<T | { skipped: string } | { failed: string }> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new DeadlineError(`server render passed its deadline (${this.options.deadlineMs} ms)`));
      }, this.options.deadlineMs);
      timer.unref();
    });
    deadline.catch(() => undefined);
    try {
      // Loading a build (or the shared modules, once) goes on past the deadline and serves the
      // next pages: a page that waits too long for it is rendered in the browser, not a failure.
      let loaded: [(ModuleFunction | null)[], Map<string, unknown>];
      try {
        loaded = await Promise.race([Promise.all([Promise.all(keys.map((key) => this.build(key))), this.sharedModules()]), deadline]);
      } catch (error) {
        if (error instanceof DeadlineError) return { skipped: 'the server build is still loading' };
        throw error;
      }
      const [builds, shared] = loaded;
      if (!builds[0]) return { skipped: 'no server build' };
      return await Promise.race([renderWith(shared, builds, controller.signal), deadline]);
    } catch (error) {
      return { failed: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Evaluates a build afresh (its module state belongs to this render), answering its `require`s
   * with the shared modules only; a remote's build must export `{ schema: 1, modules, render }`.
   */
  private evaluate(build: ModuleFunction, shared: Map<string, unknown>, frame = false): HydratablePages {
    const module: { exports: unknown } = { exports: {} };
    build(
      module.exports as object,
      (id) => {
        if (!shared.has(id)) throw new Error(`a server build may only require the shared modules, not ${id}`);
        return shared.get(id);
      },
      module,
    );
    const exported = module.exports as { default?: unknown };
    const pages = (exported.default ?? exported) as Partial<HydratablePages>;
    if (!frame && (pages.schema !== 1 || typeof pages.render !== 'function' || !Array.isArray(pages.modules))) {
      throw new Error('the server build does not export { schema: 1, modules, render }');
    }
    return pages as HydratablePages;
  }

  private async renderWith(
    build: ModuleFunction,
    shared: Map<string, unknown>,
    input: ServerRenderInput,
    signal: AbortSignal,
  ): Promise<ServerRenderOutcome> {
    const pages = this.evaluate(build, shared);
    if (!pages.modules.includes(input.module)) return { skipped: `the server build does not render ${input.module}` };
    const element = pages.render(input);
    if (element === null || element === undefined) return { skipped: 'the server build rendered nothing for this page' };
    return { html: await this.stream(element as ReactNode, shared, signal) };
  }

  /** The element as HTML, with React's streaming renderer, once everything (Suspense included) is ready. */
  private stream(element: ReactNode, shared: Map<string, unknown>, signal: AbortSignal): Promise<string> {
    const { renderToPipeableStream } = shared.get('react-dom/server') as typeof import('react-dom/server');
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let failed: unknown = null;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(Buffer.from(chunk));
          callback();
        },
        final(callback) {
          if (failed) reject(failed);
          else resolve(Buffer.concat(chunks).toString('utf8'));
          callback();
        },
      });
      const stream = renderToPipeableStream(element, {
        // Everything is ready before anything is written, so every Suspense boundary goes out in
        // place: without this React moves a large one (beyond 12.8 kB) behind an inline script,
        // which the pages' Content-Security-Policy refuses.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady: () => stream.pipe(sink),
        onShellError: reject,
        onError: (error) => {
          failed ??= error;
        },
      });
      signal.addEventListener('abort', () => stream.abort(), { once: true });
    });
  }

  /** The server's copies of the shared singletons, loaded once per process. */
  private sharedModules(): Promise<Map<string, unknown>> {
    // One after another: Node 20 fails a require() of an ES module that a concurrent import() is
    // still loading (react-router-dom requires react-router), with "reading 'getStatus'".
    sharedModules ??= (async () => {
      const modules = new Map<string, unknown>();
      for (const id of SERVER_SHARED_MODULES) modules.set(id, await import(id));
      return modules;
    })();
    return sharedModules;
  }

  /** The compiled build beside `manifestUrl`, or null when that release has none. */
  private async build(manifestUrl: string): Promise<ModuleFunction | null> {
    // A release never changes; a remote's own server, or the shell's own build on disk, may.
    const remote = /^(https?:\/\/|file:)/.test(manifestUrl);
    const held = await this.builds.fetch(manifestUrl, remote ? { ttl: this.options.httpTtlMs } : {});
    return held?.fn ?? null;
  }

  private async load(manifestUrl: string): Promise<string | null> {
    if (manifestUrl.startsWith('file:')) return readIfThere(manifestUrl.slice('file:'.length));
    if (/^https?:\/\//.test(manifestUrl)) {
      const response = await fetch(new URL(SERVER_PAGES_FILE, manifestUrl), { signal: AbortSignal.timeout(this.options.deadlineMs * 10) });
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`GET ${SERVER_PAGES_FILE} answered ${response.status}`);
      return response.text();
    }
    return readReleaseText(this.options.env, manifestUrl, SERVER_PAGES_FILE);
  }
}

async function readIfThere(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function compile(code: string, manifestUrl: string): ModuleFunction {
  const script = new vm.Script(`(function (exports, require, module) {${code}\n})`, {
    filename: manifestUrl.startsWith('file:') ? manifestUrl : `${manifestUrl.replace(/mf-manifest\.json$/, '')}${SERVER_PAGES_FILE}`,
  });
  return script.runInThisContext() as ModuleFunction;
}
