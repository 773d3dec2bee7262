import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { KNOWN_REMOTES, RELEASE_ID } from '@boatshop/release-registry';
import type { Env } from './registry';

// Files published with a release, read from the registry's disk when this shell serves the releases.

/**
 * A release's mf-manifest.json read from the registry's disk, for the page's first-paint hints
 * (first-paint.ts fetches only absolute manifest URLs): `/releases/<remote>/<id>/mf-manifest.json`
 * when the shell serves the releases itself, else null.
 */
export async function readReleaseManifest(env: Env, url: string): Promise<unknown> {
  const path = releaseFile(env, url, 'mf-manifest.json');
  if (!path) return null;
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/**
 * The path on the registry's disk of a file published beside a release's mf-manifest.json
 * (`file` relative to it, e.g. `dist/server/pages.cjs` as published), when `url` is such a manifest that this shell
 * serves itself (`/releases/<remote>/<id>/mf-manifest.json`); else null.
 */
export function releaseFile(env: Env, url: string, file: string): string | null {
  if (!env.REMOTES_REGISTRY || (env.REMOTES_RELEASES_URL || '/releases').replace(/\/+$/, '') !== '/releases') return null;
  const match = /^\/releases\/([a-z-]+)\/([^/]+)\/mf-manifest\.json$/.exec(url);
  if (!match || !Object.hasOwn(KNOWN_REMOTES, match[1]!) || !RELEASE_ID.test(match[2]!)) return null;
  return join(resolve(env.REMOTES_REGISTRY), 'releases', match[1]!, match[2]!, file);
}
