import { mkdtemp as makeTemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore } from './file-store';
import { publishRelease } from './publish';
import type { Singletons } from './singletons';

const made: string[] = [];

/** A temporary folder, removed by removeTemporaryFolders (afterAll in each test file). */
async function mkdtemp(prefix: string): Promise<string> {
  const dir = await makeTemp(prefix);
  made.push(dir);
  return dir;
}

export async function removeTemporaryFolders(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export const SHELL: Singletons = {
  react: { required: '^19.2.0', built: '19.2.1' },
  'react-dom': { required: '^19.2.0', built: '19.2.1' },
  'react-router-dom': { required: '^7.18.5', built: '7.18.6' },
  nanostores: { required: '^1.5.5', built: '1.5.5' },
  '@nanostores/react': { required: '^1.1.0', built: '1.1.0' },
  '@boatshop/state': { required: '^1.0.0', built: '1.0.0' },
};

export async function tempStore(): Promise<FileRegistryStore> {
  return new FileRegistryStore(await mkdtemp(join(tmpdir(), 'registry-test-')));
}

/** A stand-in build of a remote: its manifest and one chunk whose content is `body`. */
export async function fakeDist(body: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'registry-dist-'));
  await writeFile(join(dir, 'mf-manifest.json'), JSON.stringify({ id: 'mf_catalog', metaData: { publicPath: 'auto' } }));
  await mkdir(join(dir, 'static'), { recursive: true });
  await writeFile(join(dir, 'static', 'main.js'), body);
  for (const [name, content] of Object.entries(extra)) await writeFile(join(dir, name), content);
  return dir;
}

export async function publish(
  store: FileRegistryStore,
  remote: string,
  version: string,
  body = `${remote}@${version}`,
  singletons: Singletons = SHELL,
) {
  const { record } = await publishRelease(store, {
    remote,
    distDir: await fakeDist(body),
    version,
    commit: 'abc1234',
    builtAt: new Date().toISOString(),
    singletons,
  });
  return record;
}
