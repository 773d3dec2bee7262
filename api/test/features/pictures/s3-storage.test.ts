import getPort from 'get-port';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { s3PictureStorage, type S3Settings } from '../../../src/features/pictures/s3-storage.js';
import { jpegWithGps, multipart } from '../../helpers/pictures.js';
import { testWithApp } from '../../support/fixtures.js';

// The S3 adapter against s3rver, a local server that answers as S3 does (path-style, the same
// XML errors), so production's code path runs here without the network.

const port = await getPort({ host: '127.0.0.1' });
const settings: S3Settings = {
  endpoint: `http://127.0.0.1:${port}`,
  bucket: 'boat-pictures',
  region: 'eu-central-1',
  // s3rver's fixed development credentials
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
};
const server = new S3rver({
  port,
  address: '127.0.0.1',
  silent: true,
  directory: mkdtempSync(path.join(tmpdir(), 'boatshop-s3rver-')),
  configureBuckets: [{ name: settings.bucket, configs: [] }],
});

beforeAll(async () => {
  await server.run();
});
afterAll(async () => {
  await server.close();
});

const it = testWithApp({ config: { pictures: { storage: { kind: 's3', ...settings }, maxPixels: 100_000_000 } } });

describe('the S3 picture storage', () => {
  it('puts, gets and removes objects; a missing key is null, removing it again is no error', async () => {
    const storage = s3PictureStorage(settings);
    const key = `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/${'a'.repeat(32)}-400.jpg`;
    await storage.put(key, Buffer.from('jpeg bytes'), 'image/jpeg');
    const stored = await storage.get(key);
    expect(stored?.contentType).toBe('image/jpeg');
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('jpeg bytes');
    await storage.remove([key]);
    expect(await storage.get(key)).toBeNull();
    await storage.remove([key]);
  });

  it('serves an upload from the bucket and deletes its objects with the boat', async ({ app, admin }) => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: admin.headers,
      payload: {
        name: 'Skagen Polar 45',
        thumbnailUrl: '/api/images/skagen-polar-45.svg',
        priceCents: 100_000,
        descriptionHtml: '',
        category: 'sailing-boats',
      },
    });
    const id = created.json().id as string;
    const body = multipart({ name: 'deck.jpg', type: 'image/jpeg', body: await jpegWithGps({ width: 500, height: 400 }) });
    const uploaded = await app.inject({
      method: 'POST',
      url: `/api/admin/products/${id}/pictures`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const variants = uploaded.json().variants as { url: string }[];
    expect(variants).toHaveLength(6);
    const file = await app.inject({ url: variants[0]!.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const storage = s3PictureStorage(settings);
    const keyOf = (url: string) => url.replace('/api/pictures/', '');
    expect(await storage.get(keyOf(variants[0]!.url))).not.toBeNull();
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/products/${id}`, headers: admin.headers })).statusCode).toBe(204);
    for (const variant of variants) expect(await storage.get(keyOf(variant.url))).toBeNull();
    expect((await app.inject({ url: variants[0]!.url })).statusCode).toBe(404);
  });
});
