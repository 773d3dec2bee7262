import { mkdtemp as makeTemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore, publishRelease, promote, type RegistryStore, type Singletons } from '@boatshop/release-registry';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createWebServer } from '../server';
import { remotesEnv, serveRouteData } from './stand-in-remotes';

// The registry tests' world: stand-in remotes, a registry folder with releases, and shells reading
// it. Importing this module registers its hooks in the importing test file.

export const SINGLETONS: Singletons = { react: { required: '^19.2.0', built: '19.2.1' } };
export const started: FastifyInstance[] = [];
export const made: string[] = [];
export async function mkdtemp(prefix: string): Promise<string> {
  const dir = await makeTemp(prefix);
  made.push(dir);
  return dir;
}

afterAll(async () => {
  await standIn.close();
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
export let distDir: string;
/** The remotes never released here, at their default locations: their route data (stand-in-remotes.ts). */
export let standIn: FastifyInstance;
export let standInUrl: string;

beforeAll(async () => {
  standIn = Fastify();
  serveRouteData(standIn);
  standInUrl = await standIn.listen({ port: 0, host: '127.0.0.1' });
  distDir = await mkdtemp(join(tmpdir(), 'registry-shell-'));
  await writeFile(
    join(distDir, 'index.html'),
    '<!doctype html><html><head><title>Boat shop</title></head><body><div id="root"></div></body></html>',
  );
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()));
});

/** Two releases of mf-catalog published to `store` (a new folder when not given), 1.0.0 live. */
export async function storeWithReleases<Store extends RegistryStore = FileRegistryStore>(given?: Store) {
  const store = given ?? new FileRegistryStore(await mkdtemp(join(tmpdir(), 'registry-')));
  const ids: string[] = [];
  for (const version of ['1.0.0', '1.1.0']) {
    const dist = await mkdtemp(join(tmpdir(), 'registry-dist-'));
    await writeFile(
      join(dist, 'mf-manifest.json'),
      JSON.stringify({ id: 'mf_catalog', version, metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' } }),
    );
    await writeFile(join(dist, `main.${version.replaceAll('.', '')}abcdef.js`), `console.log(${JSON.stringify(version)})`);
    // 1.1.0 adds a page: its route data says so, and nothing else in the shell changes.
    await writeFile(join(dist, 'routes.json'), JSON.stringify({ schema: 1, remote: 'mf_catalog', routes: catalogRoutes(version) }));
    const { record } = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir: dist,
      version,
      commit: 'c0ffee',
      builtAt: new Date().toISOString(),
      singletons: SINGLETONS,
    });
    ids.push(record.id);
  }
  await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.0.0', shellSingletons: SINGLETONS });
  return { store: store as Store, ids: ids as [string, string] };
}

/** A shell reading `store`: its folder, or for a bucket the settings in `extra` (REGISTRY_STORE=s3…). */
export async function shell(store: RegistryStore, extra: Record<string, string> = {}) {
  const app = await createWebServer({
    role: 'shell',
    distDir,
    apiUrl: 'http://127.0.0.1:1',
    env: {
      ...(store instanceof FileRegistryStore ? { REMOTES_REGISTRY: store.root } : {}),
      REMOTES_REGISTRY_TTL_MS: '0',
      ...remotesEnv(standInUrl),
      ...extra,
    },
  });
  started.push(app);
  return app;
}

export function catalogRoutes(version: string) {
  const routes = [
    { path: '/', module: './Home', access: 'public', layout: 'full-bleed' },
    { path: '/search', module: './Search', access: 'public', layout: 'main' },
  ];
  return version === '1.0.0' ? routes : [...routes, { path: '/regattas', module: './Regattas', access: 'signed-in', layout: 'main' }];
}

export const catalogOf = (body: string) => (JSON.parse(body) as { remotes: Record<string, string> }).remotes.mf_catalog;
export const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="boatshop-page-data">(.*?)<\/script>/s.exec(html)![1]!) as {
    remotes: Record<string, string>;
    routes: Record<string, { path: string }[]>;
  };
