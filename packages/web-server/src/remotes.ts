import { readFile } from 'node:fs/promises';
import { portOf, type ServiceName } from './ports';

type Env = Record<string, string | undefined>;

/** The remotes the shell may register, by MF name (docs/ARCHITECTURE.md). */
export const REMOTES: readonly { name: string; service: ServiceName; urlEnv: string }[] = [
  { name: 'mf_catalog', service: 'mf-catalog', urlEnv: 'MF_CATALOG_URL' },
  { name: 'mf_cart_checkout', service: 'mf-cart-checkout', urlEnv: 'MF_CART_CHECKOUT_URL' },
  { name: 'mf_account', service: 'mf-account', urlEnv: 'MF_ACCOUNT_URL' },
  { name: 'mf_admin', service: 'mf-admin', urlEnv: 'MF_ADMIN_URL' },
];

export type RemotesManifest = Record<string, string>;

/**
 * The body of the shell's GET /remotes.json: MF name → URL of that remote's mf-manifest.json.
 * Precedence: the JSON file named by REMOTES_MANIFEST (what a deployment mounts), else each
 * remote's origin from MF_*_URL, else localhost on the remote's port. Read on every request,
 * so a changed file moves a remote without restarting the shell.
 */
export async function remotesManifest(env: Env = process.env): Promise<RemotesManifest> {
  if (env.REMOTES_MANIFEST) return readManifestFile(env.REMOTES_MANIFEST);
  return Object.fromEntries(
    REMOTES.map(({ name, service, urlEnv }) => {
      const origin = (env[urlEnv] || `http://localhost:${portOf(service, env)}`).replace(/\/+$/, '');
      return [name, `${origin}/mf-manifest.json`];
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
