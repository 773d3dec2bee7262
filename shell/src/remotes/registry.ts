import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { takeGivenRemotes } from './page-data';

/** The remotes and the pages they expose (docs/ARCHITECTURE.md). */
export interface RemotePages {
  mf_catalog: 'Home' | 'Search' | 'Product';
  mf_cart_checkout: 'Cart' | 'Payment';
  mf_account: 'Login' | 'Registration' | 'PasswordReset' | 'PasswordResetConfirm' | 'VerifyEmail' | 'Dashboard' | 'Order';
  mf_admin: 'Admin' | 'AdminOrders' | 'AdminOrder';
}

export type RemoteName = keyof RemotePages;

type RemotesManifest = Partial<Record<RemoteName, string>>;

let manifest: Promise<RemotesManifest> | null = null;
const registered = new Set<RemoteName>();

/**
 * MF name → manifest URL, from the shell's own server, so an environment moves remotes without
 * a rebuild: written into the page by that server (no round trip), else GET /remotes.json.
 */
function remotesManifest(): Promise<RemotesManifest> {
  const given = manifest ? null : takeGivenRemotes();
  if (given) manifest = Promise.resolve(given as RemotesManifest);
  manifest ??= fetch('/remotes.json', { cache: 'no-cache' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
      return (await response.json()) as RemotesManifest;
    })
    .catch((error: unknown) => {
      // Forget the failure so the next attempt (a Retry button) asks again.
      manifest = null;
      throw error;
    });
  return manifest;
}

/**
 * Registers a remote the first time one of its pages is needed, never before: mf_admin's
 * manifest is only requested once the admin guard has let an administrator through.
 */
async function ensureRegistered(remote: RemoteName): Promise<void> {
  if (registered.has(remote)) return;
  const entry = (await remotesManifest())[remote];
  if (!entry) throw new Error(`${remote} is missing from /remotes.json`);
  if (registered.has(remote)) return;
  registerRemotes([{ name: remote, entry }]);
  registered.add(remote);
}

export async function loadRemotePage<R extends RemoteName>(remote: R, page: RemotePages[R]): Promise<{ default: ComponentType }> {
  await ensureRegistered(remote);
  const module = await loadRemote<{ default?: ComponentType }>(`${remote}/${page}`);
  if (!module?.default) throw new Error(`${remote}/${page} has no default export`);
  return { default: module.default };
}
