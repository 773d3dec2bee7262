import { randomBytes } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { startS3Standin, type RunningS3Standin } from '@boatshop/dev-services/s3';
import { promote, rollback, S3RegistryStore } from '@boatshop/release-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf, pageData, shell, SINGLETONS, storeWithReleases } from './test/registry-stand-in';

// The shell with REGISTRY_STORE=s3: the registry and the releases' files in a bucket (the S3
// stand-in of dev-services on a free port), read through the real AWS SDK.

const BUCKET = 'boatshop-releases';
let s3: RunningS3Standin;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3Standin({ port: 0, buckets: [BUCKET] });
  client = new S3Client({
    endpoint: s3.url,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});

/** A registry of its own in the bucket, and the settings that make a shell read it. */
async function bucketWithReleases() {
  const prefix = `shop-${randomBytes(4).toString('hex')}/`;
  const { store, ids } = await storeWithReleases(new S3RegistryStore({ client, bucket: BUCKET, prefix }));
  const settings = {
    REGISTRY_STORE: 's3',
    REGISTRY_S3_BUCKET: BUCKET,
    REGISTRY_S3_PREFIX: prefix,
    S3_ENDPOINT: s3.url,
    AWS_REGION: s3.region,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  return { store, ids, settings };
}

describe('shell with a release registry in S3', () => {
  it("serves a release's files from the bucket with their type and immutable caching; anything else is a 404", async () => {
    const { store, ids, settings } = await bucketWithReleases();
    const app = await shell(store, settings);
    const manifestUrl = `/releases/mf-catalog/${ids[0]}/mf-manifest.json`;
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toBe(manifestUrl);

    const script = await app.inject({ url: `/releases/mf-catalog/${ids[0]}/main.100abcdef.js` });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe('console.log("1.0.0")');
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await app.inject({ method: 'HEAD', url: `/releases/mf-catalog/${ids[0]}/main.100abcdef.js` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String('console.log("1.0.0")'.length));
    expect(head.body).toBe('');
    const manifest = await app.inject({ url: manifestUrl });
    expect(manifest.json()).toMatchObject({ id: 'mf_catalog', version: '1.0.0' });

    for (const url of [
      `/releases/mf-catalog/${ids[0]}/missing.js`,
      `/releases/mf-catalog/${ids[0]}/..%2F..%2Frecords%2Fmf-catalog%2F${ids[0]}.json`,
      `/releases/mf-catalog/${ids[0]}/.env`,
      `/releases/mf-catalog/latest/mf-manifest.json`,
      `/releases/mf-nope/${ids[0]}/mf-manifest.json`,
      `/releases/mf-catalog/${ids[1]}/main.100abcdef.js`,
    ]) {
      const answer = await app.inject({ url });
      expect(answer.statusCode, url).toBe(404);
    }
  });

  it('follows a promotion and a rollback on the next request, the page hints read from the bucket', async () => {
    const { store, ids, settings } = await bucketWithReleases();
    const app = await shell(store, settings);
    expect((await app.inject({ url: '/regattas', headers: { accept: 'text/html' } })).statusCode).toBe(404);
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', shellSingletons: SINGLETONS });
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[1]);
    const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(pageData(page.body).remotes.mf_catalog).toContain(ids[1]);
    // The release's manifest, read from the bucket, is inlined and its entry preloaded.
    expect(page.body).toContain(`<link rel="preload" as="script" href="/releases/mf-catalog/${ids[1]}/remoteEntry.js">`);
    expect((await app.inject({ url: '/regattas', headers: { accept: 'text/html' } })).statusCode).toBe(200);

    await rollback(store, { environment: 'production', remote: 'mf-catalog' });
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[0]);
  });

  it('answers 503, not 500, while the bucket cannot be reached (the same file from a reachable one: 200)', async () => {
    const { store, ids, settings } = await bucketWithReleases();
    const app = await shell(store, { ...settings, S3_ENDPOINT: 'http://127.0.0.1:1' });
    const answer = await app.inject({ url: `/releases/mf-catalog/${ids[0]}/main.100abcdef.js` });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ error: { code: 'UNAVAILABLE', message: 'Release storage is unavailable' } });
    const reachable = await shell(store, settings);
    expect((await reachable.inject({ url: `/releases/mf-catalog/${ids[0]}/main.100abcdef.js` })).statusCode).toBe(200);
  });

  it('a shell refuses to start on incomplete bucket settings', async () => {
    const { store, settings } = await bucketWithReleases();
    await expect(shell(store, { ...settings, REGISTRY_S3_BUCKET: '' })).rejects.toThrow(/REGISTRY_STORE=s3 needs REGISTRY_S3_BUCKET/);
    await expect(shell(store, { ...settings, NODE_ENV: 'production', AWS_REGION: '' })).rejects.toThrow(/needs AWS_REGION/);
  });
});
