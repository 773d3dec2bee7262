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
 * `@module-federation/retry-plugin` does not fit the MF version in use (docs/adr/0004-own-remote-retry-plugin.md).
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
