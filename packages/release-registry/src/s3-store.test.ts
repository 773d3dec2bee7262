import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { RegistryError } from './errors';
import { publishRelease } from './publish';
import { promote } from './registry';
import { S3RegistryStore } from './s3-store';
import { previewSecretOf, registryStoreFromEnv } from './store-config';
import { fakeDist, publish, removeTemporaryFolders, s3StandIn, SHELL, tempS3Store, TEST_BUCKET } from './test-helpers';

// What only the S3 store has: conditional writes lost and retried, records written once, files
// with their HTTP headers, its settings. The behaviour both stores share runs against both in
// registry.test.ts, publish.test.ts, counts.test.ts and concurrency.test.ts.

afterAll(removeTemporaryFolders);

const env = 'production';

/**
 * A client of the stand-in that runs `before` ahead of each write of the environment object
 * (before it leaves for the bucket), so a competing writer can change the object in between.
 */
async function clientWithHook(before: () => Promise<void>): Promise<{ client: S3Client; writes: () => number }> {
  const { server } = await s3StandIn();
  const client = new S3Client({
    endpoint: server.url,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  let writes = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string };
      if (context.commandName === 'PutObjectCommand' && input.Key?.endsWith(`environments/${env}.json`)) {
        writes += 1;
        await before();
      }
      return next(args);
    },
    { step: 'initialize', name: 'competingWriter' },
  );
  return { client, writes: () => writes };
}

describe('the S3 registry store', () => {
  it('a conditional write lost to another writer is retried on the newer state: both changes kept', async () => {
    const other = await tempS3Store();
    await publish(other, 'mf-catalog', '1.0.0');
    await publish(other, 'mf-account', '1.0.0');
    let competed = false;
    const { client, writes } = await clientWithHook(async () => {
      if (competed) return;
      competed = true;
      await promote(other, { environment: env, remote: 'mf-account', version: '1.0.0', shellSingletons: SHELL });
    });
    const store = new S3RegistryStore({ client, bucket: TEST_BUCKET, prefix: other.prefix });
    const { state } = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    expect(writes()).toBe(2);
    expect(state.revision).toBe(2);
    const stored = await other.read(env);
    expect(stored).toEqual(state);
    expect(Object.keys(stored.remotes).sort()).toEqual(['mf-account', 'mf-catalog']);
    client.destroy();
  });

  it('a writer that keeps losing is refused (LOCKED) after its attempts, and wrote nothing', async () => {
    const other = await tempS3Store();
    const ids: string[] = [];
    for (const version of ['1.0.0', '1.0.1', '1.0.2', '1.0.3']) ids.push((await publish(other, 'mf-account', version)).id);
    await publish(other, 'mf-catalog', '1.0.0');
    let next = 0;
    const { client, writes } = await clientWithHook(async () => {
      await promote(other, { environment: env, remote: 'mf-account', version: ids[next++]!, shellSingletons: SHELL });
    });
    const store = new S3RegistryStore({ client, bucket: TEST_BUCKET, prefix: other.prefix, maxAttempts: 3, maxBackoffMs: 5 });
    const error = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ code: 'LOCKED', message: expect.stringMatching(/kept changing under 3 attempts/) });
    expect(writes()).toBe(3);
    const stored = await other.read(env);
    expect(stored.revision).toBe(3);
    expect(stored.remotes['mf-catalog']).toBeUndefined();
    expect(stored.remotes['mf-account']!.live!.release).toBe(ids[2]);
    client.destroy();
  });

  it('an environment removed between read and write (404 on If-Match) is written afresh, not lost', async () => {
    const other = await tempS3Store();
    await publish(other, 'mf-catalog', '1.0.0');
    await publish(other, 'mf-catalog', '1.1.0');
    await promote(other, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    let removed = false;
    const { client, writes } = await clientWithHook(async () => {
      if (removed) return;
      removed = true;
      const { client: plain } = await s3StandIn();
      await plain.send(new DeleteObjectCommand({ Bucket: TEST_BUCKET, Key: `${other.prefix}environments/${env}.json` }));
    });
    const store = new S3RegistryStore({ client, bucket: TEST_BUCKET, prefix: other.prefix });
    const { state } = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', shellSingletons: SHELL });
    expect(writes()).toBe(2);
    expect(state.revision).toBe(1);
    expect(await other.read(env)).toEqual(state);
    client.destroy();
  });

  it('a release record is written once: a second record of the same id is IMMUTABLE and changes nothing', async () => {
    const store = await tempS3Store();
    const record = await publish(store, 'mf-catalog', '1.0.0');
    const error = await store.addRelease({ ...record, commit: 'someone-else' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IMMUTABLE', message: `mf-catalog ${record.id} is already recorded` });
    expect(await store.releases('mf-catalog')).toEqual([record]);
  });

  it('two publishers of the same build at once: one release, both told its id', async () => {
    const store = await tempS3Store();
    const dist = await fakeDist('same build');
    const input = { remote: 'mf-catalog', distDir: dist, version: '2.0.0', commit: null, builtAt: '', singletons: SHELL };
    const results = await Promise.all([publishRelease(store, input), publishRelease(store, input)]);
    expect(results[0].record.id).toBe(results[1].record.id);
    expect(results.filter((r) => r.created).length).toBeGreaterThanOrEqual(1);
    expect(await store.releases('mf-catalog')).toHaveLength(1);
  });

  it('stores files under releases/<remote>/<id>/ with their Content-Type and immutable caching', async () => {
    const store = await tempS3Store();
    const record = await publish(store, 'mf-catalog', '1.0.0', 'console.log(1)');
    const { client } = await s3StandIn();
    const key = `${store.prefix}releases/mf-catalog/${record.id}/static/main.js`;
    const head = await client.send(new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: key }));
    expect(head).toMatchObject({
      ContentType: 'application/javascript; charset=utf-8',
      CacheControl: 'public, max-age=31536000, immutable',
    });
    const manifest = await client.send(
      new GetObjectCommand({ Bucket: TEST_BUCKET, Key: `${store.prefix}releases/mf-catalog/${record.id}/mf-manifest.json` }),
    );
    expect(manifest.ContentType).toBe('application/json; charset=utf-8');
    expect(store.releaseLocation('mf-catalog', record.id)).toBe(`s3://${TEST_BUCKET}/${store.prefix}releases/mf-catalog/${record.id}/`);
    // Paths that would leave the release, or dotfiles, are never read.
    for (const file of ['../../records/mf-catalog/x.json', '.env', 'static//main.js', ''])
      expect(await store.readReleaseFile('mf-catalog', record.id, file), file).toBeNull();
    expect(await store.readReleaseFile('mf-catalog', 'latest', 'mf-manifest.json')).toBeNull();
  });
});

describe('registryStoreFromEnv', () => {
  const s3 = { REGISTRY_STORE: 's3', REGISTRY_S3_BUCKET: 'releases' };

  it('is the folder store unless REGISTRY_STORE=s3; none without a folder', () => {
    expect(registryStoreFromEnv({})).toBeNull();
    expect(registryStoreFromEnv({ REMOTES_REGISTRY: '/srv/registry' })?.constructor.name).toBe('FileRegistryStore');
    const store = registryStoreFromEnv({ ...s3, REGISTRY_S3_PREFIX: 'shop' });
    expect(store).toBeInstanceOf(S3RegistryStore);
    expect((store as S3RegistryStore).prefix).toBe('shop/');
  });

  it('refuses unknown or malformed settings, and in production any missing one', () => {
    const refused = (env: Record<string, string>) => {
      try {
        registryStoreFromEnv(env);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused({ REGISTRY_STORE: 'nfs' })).toMatch(/REGISTRY_STORE must be "file" or "s3"/);
    expect(refused({ REGISTRY_STORE: 's3' })).toMatch(/needs REGISTRY_S3_BUCKET/);
    expect(refused({ ...s3, S3_ENDPOINT: 'minio:9000' })).toMatch(/S3_ENDPOINT must be an http\(s\) origin/);
    expect(refused({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toMatch(/S3_FORCE_PATH_STYLE/);
    expect(refused({ ...s3, REGISTRY_S3_PREFIX: '../x' })).toMatch(/REGISTRY_S3_PREFIX/);
    expect(refused({ ...s3, AWS_ACCESS_KEY_ID: 'id' })).toMatch(/go together/);
    expect(refused({ ...s3, NODE_ENV: 'production' })).toMatch(/needs AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY/);
    expect(
      refused({ ...s3, NODE_ENV: 'production', AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' }),
    ).toBeNull();
  });

  it('a bucket keeps no preview secret: REMOTES_PREVIEW_SECRET or none, and the promotion that needs one refuses', async () => {
    const store = await tempS3Store();
    expect(await previewSecretOf(store, {})).toBeNull();
    await expect(previewSecretOf(store, {}, true)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/REMOTES_PREVIEW_SECRET/),
    });
    expect(await previewSecretOf(store, { REMOTES_PREVIEW_SECRET: 's'.repeat(32) }, true)).toBe('s'.repeat(32));
  });
});
