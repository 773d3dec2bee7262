import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { runtimeCompatible } from '@boatshop/web-shared/shared-runtime';
import { takeGivenManifest } from './page-data';

/**
 * The MF runtime version the shell's page provides to the remotes (production builds; empty in
 * development builds, where each remote brings its own runtime).
 */
const SHELL_RUNTIME_VERSION = process.env.MF_RUNTIME_VERSION ?? '';

/**
 * A remote's production build runs on the shell's copy of the MF runtime (shared-runtime.ts in
 * packages/web-server): one built with another major.minor version is refused with an error
 * (the area's error boundary shows it) instead of failing in some later call.
 */
export function checkRuntime(manifest: unknown, shellVersion: string = SHELL_RUNTIME_VERSION): void {
  if (!shellVersion) return;
  const meta = (manifest as { name?: string; metaData?: { pluginVersion?: string } } | null)?.metaData;
  const remoteVersion = meta?.pluginVersion ?? '';
  if (!runtimeCompatible(shellVersion, remoteVersion)) {
    const name = (manifest as { name?: string } | null)?.name ?? 'a remote';
    throw new Error(
      `${name} was built with Module Federation ${remoteVersion || '(unknown)'}, the shell provides ${shellVersion}: release it built with ~${shellVersion.split('.').slice(0, 2).join('.')}`,
    );
  }
}

/** Pauses before each repeated attempt: a remote that is restarting gets a moment to come back. */
export const RETRY_DELAYS_MS = [300, 900];

type LoadEntryErrorResult = ReturnType<NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>>;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * fetch with retries for network failures and 5xx answers (4xx are final). Used for remote
 * manifests, which the runtime fetches before anything else of a remote.
 */
export async function fetchWithRetry(url: string, init: RequestInit, delays: readonly number[] = RETRY_DELAYS_MS): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const delay = delays[attempt];
    try {
      const response = await fetch(url, init);
      if (response.status < 500 || delay === undefined) return response;
    } catch (error) {
      if (delay === undefined) throw error;
    }
    await wait(delay);
  }
}

/**
 * Module Federation runtime plugin of the shell: retries a remote's manifest and entry script,
 * then lets the failure through to the error boundary around the remote's area, with a log
 * line naming the remote.
 *
 * Why not `@module-federation/retry-plugin` (weighed on 23 Nov 2026): the registry we
 * install from has only 0.17.1 (and 0.13.0), built for MF 0.17 while our runtime is
 * @module-federation/enhanced 2.9.2, and pinned to `@module-federation/sdk` 0.17.1 exactly.
 * - Size: bundled for the browser (rspack, production) it is 16.4 KB minified / 5.8 KB gzip,
 *   because npm nests its own sdk 0.17.1 beside our 2.9.2 and its logger import keeps most of that
 *   second sdk; 1.7 KB gzip only if the build aliased its sdk onto ours (a version it was never
 *   built against). This file is in the home page's first script: either grows the figure that
 *   `npm run bench:web` keeps from growing.
 * - Manifests: its `fetch` hook always fetches. MF calls every plugin's `fetch` hook and keeps the
 *   last answer, so beside ours it would still fetch the manifest the page already came with (the
 *   round trip `takeGivenManifest` saves on first paint); restricted to one fixed URL it cannot
 *   serve remotes registered at run time. It also retries 4xx answers (a 404
 *   manifest is final here), waits a fixed 1 s (its `fetch` option drops `retryDelay`) and replaces
 *   the last error with a generic message.
 * - Entry scripts: its `script` option does what `loadEntryError` below does (clear the failed
 *   load, call `getRemoteEntry` again), plus a retry of `get(expose)`; not worth 4 KB gzip of a
 *   second sdk for ten lines. The area's Retry button covers a failed page chunk.
 * So this plugin keeps all four duties; revisit when the registry has a retry-plugin released
 * with our MF version (same sdk, deduplicated by npm).
 */
export default function resiliencePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'boatshop-remote-resilience',
    fetch: async (url, init) => {
      // The page came with this remote's manifest (the shell's server wrote it in): no round trip.
      const given = takeGivenManifest(url);
      if (given !== undefined) {
        checkRuntime(given);
        return Response.json(given);
      }
      const response = await fetchWithRetry(url, { ...init, cache: 'no-cache' });
      if (response.ok && /mf-manifest\.json(\?|$)/.test(url))
        checkRuntime(
          await response
            .clone()
            .json()
            .catch(() => null),
        );
      return response;
    },
    loadEntryError({ getRemoteEntry, origin, remoteInfo, remoteEntryExports, globalLoading, uniqueKey }) {
      // The failed load is still registered under uniqueKey; a retry would only wait on it again.
      delete globalLoading[uniqueKey];
      const retried = wait(RETRY_DELAYS_MS[0] ?? 0)
        .then(() => getRemoteEntry({ origin, remoteInfo, remoteEntryExports }))
        .then((entry) => entry || undefined);
      // The runtime awaits the result; the hook's declared type nests one promise more than that.
      return retried as unknown as LoadEntryErrorResult;
    },
    errorLoadRemote({ id, error, lifecycle }) {
      console.error(`Remote module ${id} could not be loaded (${lifecycle})`, error);
      // Nothing to substitute: the area's error boundary offers a Retry.
      return undefined;
    },
  };
}
