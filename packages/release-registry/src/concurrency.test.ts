import { spawn } from 'node:child_process';
import { utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FileRegistryStore } from './file-store';
import { promote } from './registry';
import { S3RegistryStore } from './s3-store';
import { readSingletons } from './singletons';
import { publish, removeTemporaryFolders, s3StandIn, SHELL, STORE_KINDS, tempStore, TEST_BUCKET } from './test-helpers';
import type { RegistryStore } from './types';

afterAll(removeTemporaryFolders);

const ROOT = resolve(import.meta.dirname, '../../..');

it.each(STORE_KINDS)(
  'many promotions at once: every one applied, one at a time, the state valid throughout (%s store)',
  async (kind) => {
    const store = await tempStore(kind);
    const ids: string[] = [];
    for (let i = 0; i < 15; i += 1) ids.push((await publish(store, 'mf-cart-checkout', `1.0.${i}`)).id);

    // A reader polling the state while the writers run never sees half of one (read refuses a
    // state that does not parse and check).
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        if ((await store.read('production')).revision > 0) reads += 1;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(
      ids.map((id) => promote(store, { environment: 'production', remote: 'mf-cart-checkout', version: id, shellSingletons: SHELL })),
    );
    writing = false;
    await reader;

    const state = await store.read('production');
    const entry = state.remotes['mf-cart-checkout']!;
    expect(state.revision).toBe(15);
    expect(entry.history).toHaveLength(14);
    // No update lost: each release was live once, in the order the writes were admitted.
    expect(new Set([...entry.history.map((h) => h.release), entry.live!.release])).toEqual(new Set(ids));
    expect(reads).toBeGreaterThan(0);
  },
  60_000,
);

/** The settings that make the CLI use `store` (a folder, or the stand-in's bucket under the store's prefix). */
async function storeEnv(store: RegistryStore): Promise<Record<string, string>> {
  if (store instanceof FileRegistryStore) return { REMOTES_REGISTRY: store.root };
  const { server } = await s3StandIn();
  return {
    REGISTRY_STORE: 's3',
    REGISTRY_S3_BUCKET: TEST_BUCKET,
    REGISTRY_S3_PREFIX: (store as S3RegistryStore).prefix,
    S3_ENDPOINT: server.url,
    AWS_REGION: server.region,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
  };
}

it.each(STORE_KINDS)(
  'promotions from parallel processes (the CLI) do not corrupt the registry or lose one (%s store)',
  async (kind) => {
    const store = await tempStore(kind);
    const settings = await storeEnv(store);
    const shell = readSingletons(join(ROOT, 'shell'));
    const versions: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await publish(store, 'mf-account', `2.0.${i}`, `account ${i}`, shell);
      versions.push(`2.0.${i}`);
    }
    const run = (args: string[]) =>
      new Promise<{ code: number | null; output: string }>((done) => {
        const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/release-registry/src/cli.ts'), ...args], {
          cwd: ROOT,
          env: { ...process.env, REMOTES_REGISTRY: '', REGISTRY_STORE: '', ...settings, REMOTES_ENV: 'staging' },
        });
        let output = '';
        child.stdout.on('data', (d: Buffer) => (output += d));
        child.stderr.on('data', (d: Buffer) => (output += d));
        child.on('close', (code) => done({ code, output }));
      });
    const results = await Promise.all(versions.map((v) => run(['promote', 'mf-account', v, '--no-smoke', 'concurrency test, no shell'])));
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });
    const state = await store.read('staging');
    expect(state.revision).toBe(5);
    const entry = state.remotes['mf-account']!;
    expect([...entry.history, entry.live!].map((e) => e.release.split('-')[0]).sort()).toEqual(versions);

    const refused = await run(['promote', 'mf-account', '9.9.9']);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/refused \(UNKNOWN_RELEASE\): mf-account has no release 9\.9\.9/);
    expect((await store.read('staging')).revision).toBe(5);
  },
  60_000,
);

it('a lock left by a crashed writer is taken over once stale; a fresh one is waited for', async () => {
  const store = await tempStore();
  await publish(store, 'mf-admin', '1.0.0');
  await promote(store, { environment: 'production', remote: 'mf-admin', version: '1.0.0', shellSingletons: SHELL });
  const lock = join(store.root, 'environments', 'production.json.lock');
  await writeFile(lock, '{"pid":999999}');
  await publish(store, 'mf-admin', '0.9.0');
  const impatient = new FileRegistryStore(store.root, { timeoutMs: 200 });
  const refused = await promote(impatient, {
    environment: 'production',
    remote: 'mf-admin',
    version: '0.9.0',
    shellSingletons: SHELL,
  }).catch((e: unknown) => e);
  expect(refused).toMatchObject({ code: 'LOCKED' });
  expect((await store.read('production')).revision).toBe(1);
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  await publish(store, 'mf-admin', '1.0.1');
  const { state } = await promote(store, { environment: 'production', remote: 'mf-admin', version: '1.0.1', shellSingletons: SHELL });
  expect(state.revision).toBe(2);
});
