import { readFile } from 'node:fs/promises';
import { REMOTES } from '@boatshop/remotes';
import { portOf } from './ports';
import type { RemotesBody, RemotesManifest } from '@boatshop/web-shared/remotes-body';
import { MAX_ROUTES, pathsCollide, routeKey, routeProblems, type RouteEntry } from '@boatshop/web-shared/route-data';

type Env = Record<string, string | undefined>;

export type { RemotesBody, RemotesManifest } from '@boatshop/web-shared/remotes-body';

/**
 * Where each remote's mf-manifest.json is. Precedence: the JSON file named by REMOTES_MANIFEST
 * (what a deployment mounts), else each remote's origin from MF_*_URL, else localhost on the
 * remote's port. Read on every request, so a changed file moves a remote without restarting the
 * shell.
 */
export async function remotesManifest(env: Env = process.env): Promise<RemotesManifest> {
  if (env.REMOTES_MANIFEST) return readManifestFile(env.REMOTES_MANIFEST);
  return Object.fromEntries(
    REMOTES.map(({ mfName, folder, urlEnv }) => {
      const origin = (env[urlEnv] || `http://localhost:${portOf(folder, env)}`).replace(/\/+$/, '');
      return [mfName, `${origin}/mf-manifest.json`];
    }),
  );
}

async function readManifestFile(path: string): Promise<RemotesManifest> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path} must hold a JSON object of MF name to manifest URL`);
  }
  for (const [name, url] of Object.entries(parsed)) {
    if (typeof url !== 'string') throw new Error(`${path}: the URL of ${name} must be a string`);
  }
  return parsed as RemotesManifest;
}

/**
 * A release's route data when the release registry serves that manifest URL: the routes it
 * recorded (null: it recorded none, so its pages are unknown), or undefined when the URL is not
 * one of its releases.
 */
export type ReleaseRoutes = (mfName: string, manifestUrl: string) => Promise<unknown>;

interface Entry {
  /** The remote's entries as read, not yet accepted (see acceptRoutes); the same array until they change. */
  routes: readonly unknown[] | null;
  until: number;
  loading: Promise<void> | null;
  /** Failing since the last good read: logged once per run of failures, not every 5 s. */
  failing: boolean;
}

/**
 * Reads the remotes' route data for the shell's server: a release from the registry gives the
 * routes it recorded; a remote at its default location is asked for `routes.json` beside its
 * mf-manifest.json (a same-origin path such as /remotes/mf-catalog/mf-manifest.json is asked on
 * REMOTES_SERVER_ORIGIN, the address the server reaches that path at). Each answer is kept
 * `ttlMs` (5 s) and then refreshed in the background while the last one is served; a failed
 * read keeps the last good routes (logged), so a remote that is down keeps its pages, whose
 * error boundary then offers Retry. A remote never read since the server started (unreachable,
 * or a release that recorded no route data) has no routes here: it is named in `unavailable`,
 * never given pages the server made up. A read is waited for only while the remote has no
 * routes yet; a failed one is tried again after the same `ttlMs`, or after `unknownRetryMs` (1 s) while none was ever read. The table a visitor gets is accepted here
 * (acceptRoutes), once per combination of the remotes' data, and each entry left out is logged
 * once, not on every request.
 */
export class RouteSource {
  private readonly entries = new Map<string, Entry>();
  /** Each distinct array of read routes gets a number, so a table's acceptance is cached by them. */
  private readonly arrayIds = new WeakMap<readonly unknown[], number>();
  private nextArrayId = 0;
  private readonly acceptedTables = new Map<string, Record<string, RouteEntry[]>>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly options: {
      env: Env;
      ttlMs?: number;
      /** How soon a remote whose route data was never read is asked again (1 s). */
      unknownRetryMs?: number;
      timeoutMs?: number;
      fromRelease?: ReleaseRoutes;
      log?: (message: string, error?: unknown) => void;
    },
  ) {}

  /**
   * The accepted routes of these remotes, in the manifest's order (which decides who keeps a
   * contested path), and the remotes whose route data is not known.
   */
  async routesFor(remotes: RemotesManifest): Promise<Pick<RemotesBody, 'routes' | 'unavailable'>> {
    const pairs = await Promise.all(
      Object.entries(remotes).map(async ([mfName, url]) => [mfName, await this.routesOf(mfName, url)] as const),
    );
    return {
      routes: this.accepted(pairs.filter((pair): pair is readonly [string, readonly unknown[]] => pair[1] !== null)),
      unavailable: pairs.filter(([, routes]) => routes === null).map(([mfName]) => mfName),
    };
  }

  private accepted(table: (readonly [string, readonly unknown[]])[]): Record<string, RouteEntry[]> {
    const key = table.map(([mfName, routes]) => `${mfName}#${this.arrayId(routes)}`).join(' ');
    let accepted = this.acceptedTables.get(key);
    if (accepted) return accepted;
    const result = acceptRoutes(Object.fromEntries(table));
    const fresh = result.problems.filter((problem) => !this.reported.has(problem));
    if (fresh.length > 0) {
      if (this.reported.size + fresh.length > 1_000) this.reported.clear();
      for (const problem of fresh) this.reported.add(problem);
      this.options.log?.(
        `route data left out (the registry refuses this at release; see the remote's src/routes.ts):\n${fresh.join('\n')}`,
      );
    }
    accepted = result.routes;
    // Bounded: one table per combination of live, canary and preview releases.
    if (this.acceptedTables.size >= 32) this.acceptedTables.delete(this.acceptedTables.keys().next().value as string);
    this.acceptedTables.set(key, accepted);
    return accepted;
  }

  private arrayId(routes: readonly unknown[]): number {
    let id = this.arrayIds.get(routes);
    if (id === undefined) {
      id = this.nextArrayId += 1;
      this.arrayIds.set(routes, id);
    }
    return id;
  }

  /** One remote's entries as read (not yet accepted), or null while they are not known. */
  async routesOf(mfName: string, manifestUrl: string): Promise<readonly unknown[] | null> {
    const key = `${mfName}\0${manifestUrl}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { routes: null, until: 0, loading: null, failing: false };
      this.entries.set(key, entry);
      // Bounded: a few URLs per remote (live, canary, default).
      if (this.entries.size > 64) this.entries.delete(this.entries.keys().next().value as string);
    }
    if (entry.until <= Date.now() && !entry.loading) {
      const current = entry;
      current.loading = this.load(mfName, manifestUrl)
        .then(
          (routes) => {
            // The same data again keeps the same array, so the accepted table stays cached.
            if (current.routes === null || JSON.stringify(routes) !== JSON.stringify(current.routes)) {
              current.routes = routes;
            }
            current.failing = false;
          },
          (error: unknown) => {
            if (!current.failing) {
              const keeping = current.routes ? 'keeping the last good' : 'its pages are unknown (unavailable) until it is read';
              this.options.log?.(`cannot read the route data of ${mfName} (${manifestUrl}); ${keeping}`, error);
            }
            current.failing = true;
          },
        )
        .finally(() => {
          // A remote whose pages are not known yet (down since this server started, or not yet
          // listening when `npm start` asked first) is asked again sooner, so its pages do not
          // answer 503 for a whole cache period after it comes up.
          current.until = Date.now() + (current.routes === null ? (this.options.unknownRetryMs ?? 1_000) : (this.options.ttlMs ?? 5_000));
          current.loading = null;
        });
    }
    if (entry.routes === null && entry.loading) await entry.loading;
    return entry.routes;
  }

  private async load(mfName: string, manifestUrl: string): Promise<readonly unknown[]> {
    const recorded = await this.options.fromRelease?.(mfName, manifestUrl);
    if (recorded === null) throw new Error(`the release at ${manifestUrl} recorded no route data`);
    if (recorded !== undefined) return entriesOf(mfName, recorded);
    const url = routesUrlOf(manifestUrl, this.options.env);
    if (!url) throw new Error(`${manifestUrl} is a path on the shop's origin: set REMOTES_SERVER_ORIGIN to read ${mfName}'s routes.json`);
    const response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 3_000) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return entriesOf(mfName, await response.json());
  }
}

/**
 * The entries of a remote's routes.json (`{ schema: 1, remote, routes }`): a file that is not
 * one, or is another remote's, is a failed read (the last good data is kept). The entries
 * themselves are checked one by one when the table is accepted, so one bad entry costs only
 * that page.
 */
function entriesOf(mfName: string, data: unknown): readonly unknown[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error(`route data of ${mfName} is not { schema, remote, routes }`);
  const file = data as Record<string, unknown>;
  if (file.schema !== 1) throw new Error(`route data of ${mfName}: unknown schema ${JSON.stringify(file.schema)} (expected 1)`);
  if (file.remote !== mfName) throw new Error(`route data of ${String(file.remote)} given for ${mfName}`);
  if (!Array.isArray(file.routes) || file.routes.length > MAX_ROUTES) {
    throw new Error(`route data of ${mfName}: routes must be an array of at most ${MAX_ROUTES} entries`);
  }
  return file.routes as unknown[];
}

/**
 * The routes the shell will have, from each remote's entries as read, in the table's order:
 * an entry that is not valid route data, that claims a path an earlier remote claims, or that
 * repeats its own remote's path is left out and named in `problems`, so one remote's mistake
 * never takes the shop down and the browser gets a table it can build its router from as it is.
 * The registry refuses all three at release and promotion; this is the last line.
 */
export function acceptRoutes(table: Readonly<Record<string, readonly unknown[]>>): {
  routes: Record<string, RouteEntry[]>;
  problems: string[];
} {
  const routes: Record<string, RouteEntry[]> = {};
  const accepted: { remote: string; route: RouteEntry }[] = [];
  const problems: string[] = [];
  for (const [remote, entries] of Object.entries(table)) {
    const own: RouteEntry[] = [];
    routes[remote] = own;
    entries.forEach((entry, index) => {
      const invalid = routeProblems(entry, `${remote} route ${index + 1}`);
      if (invalid.length > 0) {
        problems.push(...invalid);
        return;
      }
      const route = entry as RouteEntry;
      const clash = accepted.find((other) => other.remote !== remote && pathsCollide(other.route.path, route.path));
      if (clash) {
        problems.push(`${remote}: ${route.path} collides with ${clash.route.path} of ${clash.remote}; left out`);
        return;
      }
      if (own.some((other) => routeKey(other.path) === routeKey(route.path))) {
        problems.push(`${remote}: ${route.path} is declared twice; the first is kept`);
        return;
      }
      own.push(route);
      accepted.push({ remote, route });
    });
  }
  return { routes, problems };
}

/** routes.json beside a manifest URL; a same-origin path is resolved on REMOTES_SERVER_ORIGIN, else null. */
export function routesUrlOf(manifestUrl: string, env: Env): string | null {
  if (/^https?:\/\//.test(manifestUrl)) return new URL('routes.json', manifestUrl).href;
  const origin = env.REMOTES_SERVER_ORIGIN;
  if (!manifestUrl.startsWith('/') || !origin) return null;
  return new URL('routes.json', new URL(manifestUrl, origin)).href;
}

let devSource: RouteSource | null = null;

/** /remotes.json without the release registry (the shell's dev server): default locations and their route data. */
export async function remotesBody(env: Env = process.env): Promise<RemotesBody> {
  devSource ??= new RouteSource({ env, log: (message, error) => console.error(message, error) });
  const remotes = await remotesManifest(env);
  return { remotes, ...(await devSource.routesFor(remotes)) };
}
