import { KNOWN_REMOTES, isReleaseId, registryStoreFromEnv, type RegistryStore } from '@boatshop/release-registry';
import type { Env } from './registry';

// Files published with a release, read from the registry's store (its folder, or its bucket with
// REGISTRY_STORE=s3) when this shell serves the releases.

const stores = new WeakMap<Env, RegistryStore | null>();

/**
 * The release registry the environment names (REMOTES_REGISTRY, or REGISTRY_STORE=s3 and its
 * settings), made once per environment object: every part of the server shares one S3 client.
 * Null when no registry is configured.
 */
export function registryStoreOf(env: Env): RegistryStore | null {
  if (!stores.has(env)) stores.set(env, registryStoreFromEnv(env));
  return stores.get(env)!;
}

/** The remote and release a manifest URL names when this shell serves the releases itself (`/releases/<remote>/<id>/mf-manifest.json`), else null. */
function servedRelease(env: Env, url: string): { remote: string; id: string } | null {
  if ((env.REMOTES_RELEASES_URL || '/releases').replace(/\/+$/, '') !== '/releases') return null;
  const match = /^\/releases\/([a-z-]+)\/([^/]+)\/mf-manifest\.json$/.exec(url);
  if (!match || !Object.hasOwn(KNOWN_REMOTES, match[1]!) || !isReleaseId(match[2]!)) return null;
  return { remote: match[1]!, id: match[2]! };
}

/**
 * The text of a file published beside a release's mf-manifest.json (`file` relative to it, e.g.
 * `dist/server/pages.cjs` as published), when `url` is such a manifest that this shell serves
 * itself; null when it is not, or the release has no such file.
 */
export async function readReleaseText(env: Env, url: string, file: string): Promise<string | null> {
  const release = servedRelease(env, url);
  const store = release ? registryStoreOf(env) : null;
  if (!release || !store) return null;
  const found = await store.readReleaseFile(release.remote, release.id, file);
  if (!found) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of found.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A release's mf-manifest.json read from the registry, for the page's first-paint hints
 * (first-paint.ts fetches only absolute manifest URLs): `/releases/<remote>/<id>/mf-manifest.json`
 * when the shell serves the releases itself, else null.
 */
export async function readReleaseManifest(env: Env, url: string): Promise<unknown> {
  try {
    const text = await readReleaseText(env, url, 'mf-manifest.json');
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}
