import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import semver from 'semver';
import { RegistryError } from './errors';
import { assertKnownRemote, KNOWN_REMOTES } from './remotes';
import { parseRoutesFile, pathsCollide, RouteDataError, routesOf, type RoutesFile } from '@boatshop/web-shared/route-data';
import type { Singletons } from './singletons';
import type { RegistryStore, ReleaseRecord } from './types';

/** Every regular file under dir, relative, '/'-separated, sorted; dotfiles are never released. */
async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')))
    .sort();
}

/** sha256 over each file's name and content, in name order: equal builds give equal hashes. */
export async function contentHash(dir: string): Promise<{ hash: string; files: string[] }> {
  const files = await filesOf(dir);
  const hash = createHash('sha256');
  for (const file of files) {
    const content = await readFile(join(dir, file));
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return { hash: hash.digest('hex'), files };
}

export interface PublishInput {
  remote: string;
  /** The remote's production build (its dist folder). */
  distDir: string;
  /** From the remote's package.json. */
  version: string;
  commit: string | null;
  builtAt: string;
  singletons: Singletons;
}

export interface PublishResult {
  record: ReleaseRecord;
  /** False when exactly this content was already published under this version. */
  created: boolean;
}

/**
 * Publishes a build to `releases/<remote>/<version>-<hash>/` in the store and records it. Nothing
 * published is ever overwritten: the same version with other content is refused (bump the
 * version), the same content again is a no-op. The files are stored first and the record last,
 * so a half-stored release is never visible.
 */
export async function publishRelease(store: RegistryStore, input: PublishInput): Promise<PublishResult> {
  const remote = assertKnownRemote(input.remote);
  if (typeof input.version !== 'string' || !semver.valid(input.version) || input.version.length > 64) {
    throw new RegistryError('INVALID_INPUT', `${remote}: version ${JSON.stringify(input.version)} in package.json is not a semver version`);
  }
  if (!existsSync(join(input.distDir, 'mf-manifest.json'))) {
    throw new RegistryError('INVALID_INPUT', `${input.distDir}/mf-manifest.json not found: build ${remote} first`);
  }
  const routes = readRoutesFile(remote, input.distDir);
  if (routes) {
    const collisions = await releaseRouteCollisions(store, remote, routes);
    if (collisions.length > 0) {
      throw new RegistryError(
        'ROUTE_COLLISION',
        `${remote} ${input.version} claims paths that other remotes serve; nothing was published:\n  ${collisions.join('\n  ')}`,
      );
    }
  }
  const { hash, files } = await contentHash(input.distDir);
  const id = `${input.version}-${hash.slice(0, 12)}`;

  const existing = await store.releases(remote);
  const sameVersion = existing.find((r) => r.version === input.version);
  if (sameVersion && sameVersion.contentHash !== hash) {
    throw new RegistryError(
      'IMMUTABLE',
      `${remote} ${input.version} is already published (${sameVersion.id}) with other content; releases are never overwritten: bump the version in ${remote}/package.json`,
    );
  }
  if (sameVersion) return { record: sameVersion, created: false };

  await store.putReleaseFiles(remote, id, input.distDir, files);

  const record: ReleaseRecord = {
    schema: 1,
    remote,
    id,
    version: input.version,
    commit: input.commit,
    builtAt: input.builtAt,
    publishedAt: new Date().toISOString(),
    contentHash: hash,
    files: files.length,
    singletons: input.singletons,
    routes,
  };
  try {
    await store.addRelease(record);
  } catch (error) {
    if (error instanceof RegistryError && error.code === 'IMMUTABLE') {
      const raced = (await store.releases(remote)).find((r) => r.id === id);
      if (raced) return { record: raced, created: false };
    }
    throw error;
  }
  return { record, created: true };
}

/** The build's dist/routes.json, checked (null when the remote declares no routes); malformed route data is refused. */
function readRoutesFile(remote: string, distDir: string): RoutesFile | null {
  const file = join(distDir, 'routes.json');
  if (!existsSync(file)) return null;
  try {
    const routes = parseRoutesFile(JSON.parse(readFileSync(file, 'utf8')));
    if (routes.remote !== KNOWN_REMOTES[remote]) {
      throw new RouteDataError([`routes.json is for ${routes.remote}, not ${KNOWN_REMOTES[remote]}`]);
    }
    return routes;
  } catch (error) {
    const why = error instanceof RouteDataError ? error.problems.join('\n  ') : String(error);
    throw new RegistryError('INVALID_INPUT', `${remote}: ${file} is not valid route data; nothing was published:\n  ${why}`);
  }
}

/**
 * Release-time check (promotion checks again against the state it changes): the paths of `routes`
 * that the live or canary release of another remote claims, in any environment of the registry,
 * each named with the environment, the other remote and its release.
 */
export async function releaseRouteCollisions(store: RegistryStore, remote: string, routes: RoutesFile): Promise<string[]> {
  const found: string[] = [];
  for (const environment of await store.environments()) {
    const state = await store.read(environment);
    for (const [other, entry] of Object.entries(state.remotes)) {
      if (other === remote) continue;
      const records = await store.releases(other);
      for (const [role, id] of [
        ['live', entry.live?.release],
        ['canary', entry.canary?.release],
      ] as const) {
        const record = id ? records.find((r) => r.id === id) : undefined;
        if (!record) continue;
        for (const claimed of routesOf(record.routes)) {
          const path = typeof claimed === 'object' && claimed !== null ? (claimed as { path?: unknown }).path : undefined;
          if (typeof path !== 'string') continue;
          for (const own of routes.routes.filter((route) => pathsCollide(route.path, path))) {
            found.push(`${own.path}: ${path} is served by ${other} ${record.id} (${role} in ${environment})`);
          }
        }
      }
    }
  }
  return found;
}
