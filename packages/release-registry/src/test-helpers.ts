import { randomBytes } from 'node:crypto';
import { mkdtemp as makeTemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore } from './file-store';
import { publishRelease } from './publish';
import { S3RegistryStore, type S3StoreSettings } from './s3-store';
import { s3StandIn, stopS3StandIn, TEST_BUCKET } from './test/s3-stand-in';
import type { Singletons } from './singletons';
import type { RegistryStore } from './types';

const made: string[] = [];

/** A temporary folder, removed by removeTemporaryFolders (afterAll in each test file). */
async function mkdtemp(prefix: string): Promise<string> {
  const dir = await makeTemp(prefix);
  made.push(dir);
  return dir;
}

/** Removes the temporary folders and stops the S3 stand-in (afterAll in each test file). */
export async function removeTemporaryFolders(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  await stopS3StandIn();
}

/** Every registry behaviour test runs against each store. */
export const STORE_KINDS = ['file', 's3'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export { s3StandIn, TEST_BUCKET };

/** A registry in the stand-in's bucket under a prefix of its own, so tests never see each other's objects. */
export async function tempS3Store(settings: Partial<S3StoreSettings> = {}): Promise<S3RegistryStore> {
  const { client } = await s3StandIn();
  return new S3RegistryStore({ client, bucket: TEST_BUCKET, prefix: `t-${randomBytes(6).toString('hex')}/`, ...settings });
}

export const SHELL: Singletons = {
  react: { required: '^19.2.0', built: '19.2.1' },
  'react-dom': { required: '^19.2.0', built: '19.2.1' },
  'react-router-dom': { required: '^7.18.5', built: '7.18.6' },
  nanostores: { required: '^1.5.5', built: '1.5.5' },
  '@nanostores/react': { required: '^1.1.0', built: '1.1.0' },
  '@boatshop/state': { required: '^1.0.0', built: '1.0.0' },
};

export async function tempStore(): Promise<FileRegistryStore>;
export async function tempStore(kind: StoreKind): Promise<RegistryStore>;
export async function tempStore(kind: StoreKind = 'file'): Promise<RegistryStore> {
  if (kind === 's3') return tempS3Store();
  return new FileRegistryStore(await mkdtemp(join(tmpdir(), 'registry-test-')));
}

/** A published file's text, read through the store (null: not published). */
export async function publishedText(store: RegistryStore, remote: string, id: string, file: string): Promise<string | null> {
  const found = await store.readReleaseFile(remote, id, file);
  if (!found) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of found.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
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
  store: RegistryStore,
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
