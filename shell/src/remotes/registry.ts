import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemotesBody as SharedRemotesBody } from '@boatshop/web-shared/remotes-body';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { takeGivenRemotes } from './page-data';

/**
 * A remote page, as the route data names it: the remote's MF name (`mf_catalog`) and its exposed
 * module without the `./` (`Product`). Both are data from the remotes (their src/routes.ts, read
 * by the shell's server), not names the shell is built with: the route builder only renders
 * pages that valid route data declares, and a module the remote does not expose fails here, in
 * that page's error boundary.
 */
export interface RemotePageRef {
  remote: string;
  page: string;
}

/**
 * GET /remotes.json (`RemotesBody` of @boatshop/web-shared), as the router reads it: the route
 * table read-only. A server from before `unavailable` sends none: nothing is unknown.
 */
export interface RemotesBody extends Omit<SharedRemotesBody, 'routes' | 'unavailable'> {
  routes: RouteTable;
  unavailable: readonly string[];
}

/** What the router is built from: the pages the remotes declare, and whether some are unknown. */
export type KnownRoutes = Pick<RemotesBody, 'routes' | 'unavailable'>;

let body: Promise<RemotesBody> | null = null;
const registered = new Set<string>();

/**
 * The body in the shape the router builder relies on, and nothing more: the server has already
 * accepted the route data (packages/web-server, remotes.ts), so this only makes a garbled answer
 * (a proxy's error page, a truncated body) fail as "not { remotes, routes }" (Retry shown) instead
 * of crashing the router. Null for anything else.
 */
function remotesBodyOf(value: unknown): RemotesBody | null {
  const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const route = (v: unknown) => object(v) && typeof v.path === 'string' && (v.module === undefined || typeof v.module === 'string');
  if (!object(value) || !object(value.remotes) || !object(value.routes)) return null;
  if (!Object.values(value.routes).every((routes) => Array.isArray(routes) && routes.every(route))) return null;
  const unavailable = value.unavailable ?? [];
  if (!Array.isArray(unavailable) || !unavailable.every((name) => typeof name === 'string')) return null;
  // A server from before `unavailable` sends none: nothing is unknown.
  return { remotes: value.remotes as RemotesBody['remotes'], routes: value.routes as RemotesBody['routes'], unavailable };
}

/**
 * The remotes and their route data, from the shell's own server, so an environment moves remotes
 * and remotes add pages without a shell build: written into the page by that server (no round
 * trip), else GET /remotes.json.
 */
function remotesBody(): Promise<RemotesBody> {
  const given = body ? null : remotesBodyOf(takeGivenRemotes());
  if (given) body = Promise.resolve(given);
  body ??= fetch('/remotes.json', { cache: 'no-cache' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
      const json = remotesBodyOf(await response.json());
      if (!json) throw new Error('/remotes.json is not { remotes, routes }');
      return json;
    })
    .catch((error: unknown) => {
      // Forget the failure so the next attempt (a Retry button) asks again.
      body = null;
      throw error;
    });
  return body;
}

let given: KnownRoutes | null = null;

/** The route data the page came with, at once (null: none, ask loadRoutes); the same on every call. */
export function givenRoutes(): KnownRoutes | null {
  if (given || body) return given;
  const data = remotesBodyOf(takeGivenRemotes());
  if (!data) return null;
  body = Promise.resolve(data);
  given = { routes: data.routes, unavailable: data.unavailable };
  return given;
}

/** The route data of every remote, from the page or /remotes.json. */
export async function loadRoutes(): Promise<KnownRoutes> {
  const { routes, unavailable } = await remotesBody();
  return { routes, unavailable };
}

/**
 * The route data asked of the server again (/remotes.json), for a Retry while some remote's pages
 * are unknown: the server reads an unreachable remote's route data again every few seconds.
 * Remotes already registered keep their entry.
 */
export function askRoutesAgain(): Promise<KnownRoutes> {
  body = null;
  return loadRoutes();
}

/**
 * Registers a remote the first time one of its pages is needed, never before: mf_admin's
 * manifest is only requested once the admin guard has let an administrator through.
 */
async function ensureRegistered(remote: string): Promise<void> {
  if (registered.has(remote)) return;
  const entry = (await remotesBody()).remotes[remote];
  if (!entry) throw new Error(`${remote} is missing from /remotes.json`);
  if (registered.has(remote)) return;
  registerRemotes([{ name: remote, entry }]);
  registered.add(remote);
}

/** A remote's exposed module as it is (its default export is the page; it may export more, e.g. `hydrateWith`). */
export async function loadRemoteModule(remote: RemotePageRef['remote'], page: RemotePageRef['page']): Promise<Record<string, unknown>> {
  await ensureRegistered(remote);
  const module = await loadRemote<Record<string, unknown>>(`${remote}/${page}`);
  if (!module) throw new Error(`${remote}/${page} could not be loaded`);
  return module;
}

export async function loadRemotePage(remote: RemotePageRef['remote'], page: RemotePageRef['page']): Promise<{ default: ComponentType }> {
  const module = (await loadRemoteModule(remote, page)) as { default?: ComponentType };
  if (!module.default) throw new Error(`${remote}/${page} has no default export`);
  return { default: module.default };
}
