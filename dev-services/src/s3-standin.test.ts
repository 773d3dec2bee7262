import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Standin, type RunningS3Standin } from './s3-standin.js';

// The real AWS SDK against the stand-in: conditional writes answer as AWS documents them.

const Bucket = 'boatshop-releases';
let s3: RunningS3Standin;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3Standin({ port: 0, buckets: [Bucket] });
  client = clientFor(s3.url);
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});

function clientFor(endpoint: string) {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}

const put = (Key: string, body: string, condition: { IfMatch?: string; IfNoneMatch?: string } = {}) =>
  client.send(new PutObjectCommand({ Bucket, Key, Body: Buffer.from(body), ...condition }));
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { name: string; $metadata: { httpStatusCode: number } }) => ({ name: error.name, status: error.$metadata.httpStatusCode }),
  );
const text = async (Key: string) => (await client.send(new GetObjectCommand({ Bucket, Key }))).Body!.transformToString();

describe('the S3 stand-in', () => {
  it('writes with If-None-Match: * only when the key is new; 412 PreconditionFailed otherwise, nothing written', async () => {
    await put('a.json', 'first', { IfNoneMatch: '*' });
    expect(await failure(put('a.json', 'second', { IfNoneMatch: '*' }))).toEqual({ name: 'PreconditionFailed', status: 412 });
    expect(await text('a.json')).toBe('first');
  });

  it('writes with If-Match only over that ETag: a stale one is 412, a missing key 404 NoSuchKey', async () => {
    const first = await put('b.json', 'one');
    const second = await put('b.json', 'two', { IfMatch: first.ETag! });
    expect(await failure(put('b.json', 'stale', { IfMatch: first.ETag! }))).toEqual({ name: 'PreconditionFailed', status: 412 });
    expect(await failure(put('missing.json', 'x', { IfMatch: first.ETag! }))).toEqual({ name: 'NoSuchKey', status: 404 });
    expect(await text('b.json')).toBe('two');
    await put('b.json', 'three', { IfMatch: second.ETag! });
    expect(await text('b.json')).toBe('three');
  });

  it('of conditional writes racing on one key, one wins; the others get 409 ConditionalRequestConflict or 412', async () => {
    const { ETag } = await put('c.json', 'start');
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => failure(put('c.json', `writer ${i}`, { IfMatch: ETag! }))));
    const winners = results.flatMap((result, i) => (result === null ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const result of results.filter(Boolean)) expect(['ConditionalRequestConflict', 'PreconditionFailed']).toContain(result!.name);
    expect(results.some((result) => result?.status === 409)).toBe(true);
    expect(await text('c.json')).toBe(`writer ${winners[0]}`);
  });

  it('passes plain writes and reads through to s3rver unchanged', async () => {
    await put('d.json', 'plain');
    await put('d.json', 'overwritten');
    expect(await text('d.json')).toBe('overwritten');
  });
});

// Why the front exists: s3rver 3 ignores the conditions on PutObject. When a version honours
// them, this fails, and the front can go (ADR 0083).
it('s3rver alone overwrites despite If-None-Match: *', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'boatshop-s3rver-'));
  const bare = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: Bucket, configs: [] }] });
  const { port } = (await bare.run()) as { port: number };
  const direct = clientFor(`http://127.0.0.1:${port}`);
  try {
    await direct.send(new PutObjectCommand({ Bucket, Key: 'e.json', Body: Buffer.from('first') }));
    await direct.send(new PutObjectCommand({ Bucket, Key: 'e.json', Body: Buffer.from('second'), IfNoneMatch: '*' }));
    expect(await (await direct.send(new GetObjectCommand({ Bucket, Key: 'e.json' }))).Body!.transformToString()).toBe('second');
  } finally {
    direct.destroy();
    await bare.close();
    await rm(directory, { recursive: true, force: true });
  }
});
