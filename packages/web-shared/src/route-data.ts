/**
 * Route data: the pages a remote declares in its own source (`src/routes.ts` of each `mf-…` remote), which its
 * build writes to `dist/routes.json`, a release records, the shell's server hands to the shell
 * (`/remotes.json` and the page data block) and the shell builds its router from
 * (docs/ARCHITECTURE.md, "Module Federation"). Plain data and plain functions: no Node.js or
 * browser API, so the remotes' builds, the web server and the registry all use this one file
 * (`@boatshop/web-shared/route-data`).
 * The remotes and the shell take only its types (`import type`): the shell's server accepts the
 * table before the browser gets it, so no validator ships in the shell's bundle.
 */

/** Who may open a page: anyone, only visitors without a session, any signed-in user, administrators. */
export const ROUTE_ACCESS = ['public', 'guest-only', 'signed-in', 'admin'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

/**
 * Which of the shell's layouts frames a page: header, content and footer (`main`), the same with
 * the content edge to edge (`full-bleed`), or header, sidebar and content (`dashboard`; the
 * sidebar of an `admin` page leads to the admin pages, any other's to the account).
 */
export const ROUTE_LAYOUTS = ['main', 'full-bleed', 'dashboard'] as const;
export type RouteLayout = (typeof ROUTE_LAYOUTS)[number];

export interface RouteEntry {
  /**
   * `/`, `/search/:filterType`, `/admin/*`: static segments, `:name` parameters, and `*` as the
   * last segment for everything below a prefix.
   */
  path: string;
  /**
   * The exposed module that renders the page (`./Product`). Absent only on a `…/*` route: the
   * remote claims every path below the prefix, and an unknown one shows the shell's not-found
   * page behind the route's guard and in its layout (so `/admin/anything` asks an administrator
   * first, and nobody learns from a not-found page which admin pages exist).
   */
  module?: string;
  access: RouteAccess;
  layout: RouteLayout;
  /** The page's title in the HTML the shell's server sends (such pages are never indexed). */
  title?: string;
}

/** What a remote's `src/routes.ts` exports. */
export type RouteData = readonly RouteEntry[];

/** `dist/routes.json`, as the build writes it and a release records it. */
export interface RoutesFile {
  schema: 1;
  /** The remote's Module Federation name (`mf_catalog`). */
  remote: string;
  routes: RouteEntry[];
}

/** Route data per remote, by MF name: the `routes` of `/remotes.json` and the page data block. */
export type RouteTable = Readonly<Record<string, RouteData>>;

export class RouteDataError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'RouteDataError';
  }
}

const SEGMENT = /^(?:[A-Za-z0-9._~-]+|:[A-Za-z][A-Za-z0-9_]*)$/;
const MODULE = /^\.\/[A-Za-z][A-Za-z0-9_]*$/;
const MF_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const KEYS = new Set(['path', 'module', 'access', 'layout', 'title']);
/** The most routes one remote may declare (its build, a release and the shell's server refuse more). */
export const MAX_ROUTES = 200;

/** The problems of one route entry ([] when it is valid). */
export function routeProblems(value: unknown, where: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${where}: expected an object`];
  const entry = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(entry)) if (!KEYS.has(key)) problems.push(`${where}: unknown field "${key}"`);
  const { path, module, access, layout, title } = entry;
  const splat = typeof path === 'string' && path.endsWith('/*');
  if (typeof path !== 'string' || path.length > 200 || !path.startsWith('/')) {
    problems.push(`${where}: path must be a string starting with "/", got ${JSON.stringify(path)}`);
  } else if (path !== '/') {
    const segments = path.slice(1).split('/');
    if (splat) segments.pop();
    if (segments.length === 0 || !segments.every((segment) => SEGMENT.test(segment))) {
      problems.push(`${where}: path ${JSON.stringify(path)}: segments are names or :parameters, "*" only last and after a prefix`);
    }
  }
  if (module === undefined) {
    if (!splat) problems.push(`${where}: module is required (only a "…/*" route may leave it out)`);
  } else if (typeof module !== 'string' || !MODULE.test(module)) {
    problems.push(`${where}: module must name an exposed module such as "./Home", got ${JSON.stringify(module)}`);
  }
  if (!ROUTE_ACCESS.includes(access as RouteAccess)) {
    problems.push(`${where}: unknown access ${JSON.stringify(access)} (one of ${ROUTE_ACCESS.join(', ')})`);
  }
  if (!ROUTE_LAYOUTS.includes(layout as RouteLayout)) {
    problems.push(`${where}: unknown layout ${JSON.stringify(layout)} (one of ${ROUTE_LAYOUTS.join(', ')})`);
  }
  if (title !== undefined && (typeof title !== 'string' || title.length === 0 || title.length > 120)) {
    problems.push(`${where}: title must be a string of 1 to 120 characters`);
  }
  return problems;
}

/**
 * One remote's routes, checked: every entry valid (unknown access or layout refused), no path
 * claimed twice. Throws RouteDataError listing every problem.
 */
export function validateRoutes(value: unknown, remote = 'route data'): RouteEntry[] {
  if (!Array.isArray(value)) throw new RouteDataError([`${remote}: routes must be an array`]);
  if (value.length > MAX_ROUTES) throw new RouteDataError([`${remote}: at most ${MAX_ROUTES} routes`]);
  const problems = value.flatMap((entry, index) => routeProblems(entry, `${remote} route ${index + 1}`));
  if (problems.length === 0) {
    const routes = value as RouteEntry[];
    routes.forEach((route, index) => {
      // Its own `/admin/*` beside `/admin/orders` is how a remote claims a prefix; the same path twice is a mistake.
      const earlier = routes.slice(0, index).find((other) => routeKey(other.path) === routeKey(route.path));
      if (earlier) problems.push(`${remote}: ${route.path} is declared twice (also as ${earlier.path})`);
    });
  }
  if (problems.length > 0) throw new RouteDataError(problems);
  return value as RouteEntry[];
}

/** `dist/routes.json` checked: `{ schema: 1, remote, routes }`. */
export function parseRoutesFile(value: unknown): RoutesFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RouteDataError(['routes.json must hold { "schema": 1, "remote": <MF name>, "routes": [...] }']);
  }
  const file = value as Record<string, unknown>;
  const problems: string[] = [];
  if (file.schema !== 1) problems.push(`routes.json: unknown schema ${JSON.stringify(file.schema)} (expected 1)`);
  if (typeof file.remote !== 'string' || !MF_NAME.test(file.remote)) problems.push('routes.json: remote must be an MF name');
  for (const key of Object.keys(file))
    if (!['schema', 'remote', 'routes'].includes(key)) problems.push(`routes.json: unknown field "${key}"`);
  if (problems.length > 0) throw new RouteDataError(problems);
  return { schema: 1, remote: file.remote as string, routes: validateRoutes(file.routes, file.remote as string) };
}

/** The routes of recorded route data: a routes.json (`{ routes }`) or a bare array; [] for anything else. */
export function routesOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (typeof data === 'object' && data !== null && Array.isArray((data as { routes?: unknown }).routes)) {
    return (data as { routes: unknown[] }).routes;
  }
  return [];
}

/** A path as the router compares it: case, doubled and trailing slashes and parameter names aside. */
export function routeKey(path: string): string {
  const key = `/${path}`
    .replace(/\/+/g, '/')
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? ':' : segment.toLowerCase()))
    .join('/');
  return key || '/';
}

/**
 * Two paths one router cannot give to two remotes: the same path (see routeKey), or one
 * claiming everything below a prefix (`/admin/*`) and the other a path there (`/admin`,
 * `/admin/orders`).
 */
export function pathsCollide(a: string, b: string): boolean {
  const [x, y] = [routeKey(a), routeKey(b)];
  if (x === y) return true;
  const under = (splat: string, path: string) => {
    if (!splat.endsWith('/*')) return false;
    const prefix = splat.slice(0, -2);
    return path === prefix || path.startsWith(`${prefix}/`);
  };
  return under(x, y) || under(y, x);
}

export interface RouteCollision {
  path: string;
  remote: string;
  otherPath: string;
  otherRemote: string;
}

/** Paths claimed by two remotes of one table (each pair once). */
export function tableCollisions(table: RouteTable): RouteCollision[] {
  const found: RouteCollision[] = [];
  const remotes = Object.entries(table);
  remotes.forEach(([remote, routes], index) => {
    for (const [otherRemote, otherRoutes] of remotes.slice(index + 1)) {
      for (const route of routes) {
        for (const other of otherRoutes) {
          if (pathsCollide(route.path, other.path)) found.push({ path: route.path, remote, otherPath: other.path, otherRemote });
        }
      }
    }
  });
  return found;
}

/** react-router's ranking (computeScore): static segments beat parameters, which beat a splat. */
function score(path: string): number {
  const segments = path === '/' ? [''] : path.slice(1).split('/');
  let total = segments.length;
  if (segments.at(-1) === '*') total -= 2;
  for (const segment of segments) {
    if (segment === '*') continue;
    total += segment === '' ? 1 : segment.startsWith(':') ? 3 : 10;
  }
  return total;
}

/** A route path's segments (routeKey's), kept: a server matches every request against the same few routes. */
const patterns = new Map<string, string[]>();
const PATTERNS_KEPT = 1000;

function patternOf(path: string): string[] {
  let segments = patterns.get(path);
  if (!segments) {
    if (patterns.size >= PATTERNS_KEPT) patterns.clear();
    segments = routeKey(path).split('/');
    patterns.set(path, segments);
  }
  return segments;
}

function matches(want: string[], have: string[]): boolean {
  if (want.at(-1) === '*') {
    const prefix = want.slice(0, -1);
    return have.length >= prefix.length && prefix.every((segment, i) => segment === ':' || segment === have[i]);
  }
  return want.length === have.length && want.every((segment, i) => (segment === ':' ? have[i] !== '' : segment === have[i]));
}

/** The route of a table that the shell's router renders for a path (as react-router ranks them), or null. */
export function findRoute(table: RouteTable, pathname: string): { remote: string; route: RouteEntry } | null {
  let best: { remote: string; route: RouteEntry; score: number } | null = null;
  const have = routeKey(pathname).split('/');
  for (const [remote, routes] of Object.entries(table)) {
    for (const route of routes) {
      if (!matches(patternOf(route.path), have)) continue;
      const value = score(route.path);
      if (!best || value > best.score) best = { remote, route, score: value };
    }
  }
  return best && { remote: best.remote, route: best.route };
}
