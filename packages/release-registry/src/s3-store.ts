import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mergeTallies, parseCounts, REPLICA_NAME, type CountsFile, type Tallies } from './counts';
import { RegistryError } from './errors';
import { contentTypeOf, isReleaseId, isReleasePath } from './release-paths';
import { assertEnvironment, assertKnownRemote } from './remotes';
import { parseEnvironmentState } from './validate';
import { emptyEnvironment, type EnvironmentState, type RegistryStore, type ReleaseFile, type ReleaseRecord } from './types';

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export interface S3StoreSettings {
  client: S3Client;
  bucket: string;
  /** Prepended to every key ('' or ending in '/'), so environments can share a bucket. */
  prefix?: string;
  /** Conditional writes tried per update before it is refused (LOCKED). */
  maxAttempts?: number;
  /** Longest pause between two attempts, in milliseconds (jittered, growing from 10 ms). */
  maxBackoffMs?: number;
}

/**
 * The registry in an S3-compatible bucket, the same layout as the folder of FileRegistryStore:
 *   <prefix>releases/<remote>/<id>/…          the published files (Content-Type, immutable caching)
 *   <prefix>records/<remote>/<id>.json        what each release records, written with If-None-Match: *
 *   <prefix>environments/<env>.json           live and canary per remote
 *   <prefix>counts/<env>/<replica>.json       page loads and failures, one object per shell replica
 * `update` is optimistic (ADR 0083): read the environment and its ETag, apply the change, write
 * with If-Match (If-None-Match: * for a first write); when another writer got there first (412
 * PreconditionFailed, 409 ConditionalRequestConflict while its write is in flight, 404 when the
 * object was removed meanwhile) the change is applied again to the newer state, a bounded
 * number of times, then refused (LOCKED). S3 writes whole objects atomically, so readers see the
 * old state or the new one.
 */
export class S3RegistryStore implements RegistryStore {
  private readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  private readonly maxAttempts: number;
  private readonly maxBackoffMs: number;

  constructor(settings: S3StoreSettings) {
    this.client = settings.client;
    this.bucket = settings.bucket;
    this.prefix = settings.prefix ?? '';
    if (this.prefix !== '' && !this.prefix.endsWith('/')) this.prefix += '/';
    this.maxAttempts = settings.maxAttempts ?? 20;
    this.maxBackoffMs = settings.maxBackoffMs ?? 500;
  }

  releaseLocation(remote: string, id: string): string {
    return `s3://${this.bucket}/${this.prefix}releases/${remote}/${id}/`;
  }

  private environmentKey(environment: string): string {
    return `${this.prefix}environments/${assertEnvironment(environment)}.json`;
  }

  /** The object's text and ETag, or null when there is no such key. */
  private async get(key: string): Promise<{ text: string; etag: string } | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { text: await answer.Body!.transformToString('utf8'), etag: answer.ETag! };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Every key under `under`, with its last change; ListObjectsV2 pages through 1,000 at a time. */
  private async list(under: string): Promise<{ key: string; modified: Date | undefined }[]> {
    const found: { key: string; modified: Date | undefined }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: under, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const item of page.Contents ?? []) if (item.Key) found.push({ key: item.Key, modified: item.LastModified });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async read(environment: string): Promise<EnvironmentState> {
    const key = this.environmentKey(environment);
    const found = await this.get(key);
    return found ? parseEnvironmentState(found.text, `s3://${this.bucket}/${key}`) : emptyEnvironment(environment);
  }

  async update(environment: string, change: (state: EnvironmentState) => EnvironmentState): Promise<EnvironmentState> {
    const key = this.environmentKey(environment);
    const where = `s3://${this.bucket}/${key}`;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      const found = await this.get(key);
      const current = found ? parseEnvironmentState(found.text, where) : emptyEnvironment(environment);
      const next = change(structuredClone(current));
      if (JSON.stringify(next) === JSON.stringify(current)) return current;
      const stored: EnvironmentState = { ...next, revision: current.revision + 1, updatedAt: new Date().toISOString() };
      // Refuse to write what could not be read back.
      parseEnvironmentState(JSON.stringify(stored), where);
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: Buffer.from(`${JSON.stringify(stored, null, 2)}\n`),
            ContentType: 'application/json',
            CacheControl: 'no-store',
            ...(found ? { IfMatch: found.etag } : { IfNoneMatch: '*' }),
          }),
        );
        return stored;
      } catch (error) {
        if (!lostTheRace(error)) throw error;
        await sleep(backoff(attempt, this.maxBackoffMs));
      }
    }
    throw new RegistryError(
      'LOCKED',
      `${where} kept changing under ${this.maxAttempts} attempts (other writers are busy); nothing of this change was written, try again`,
    );
  }

  async environments(): Promise<string[]> {
    const under = `${this.prefix}environments/`;
    return (await this.list(under))
      .map(({ key }) => key.slice(under.length))
      .filter((name) => /^[a-z][a-z0-9-]{0,31}\.json$/.test(name))
      .map((name) => name.slice(0, -5))
      .sort();
  }

  async addRelease(record: ReleaseRecord): Promise<void> {
    const key = `${this.prefix}records/${assertKnownRemote(record.remote)}/${record.id}.json`;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: Buffer.from(`${JSON.stringify(record, null, 2)}\n`),
            ContentType: 'application/json',
            // A record is written once: a second publication of the same id is refused here too.
            IfNoneMatch: '*',
          }),
        );
        return;
      } catch (error) {
        if (status(error) === 412) throw new RegistryError('IMMUTABLE', `${record.remote} ${record.id} is already recorded`);
        // 409: another publisher is writing this very record right now; its outcome decides.
        if (status(error) !== 409 || attempt >= this.maxAttempts) throw error;
        await sleep(backoff(attempt, this.maxBackoffMs));
      }
    }
  }

  async releases(remote: string): Promise<ReleaseRecord[]> {
    const under = `${this.prefix}records/${assertKnownRemote(remote)}/`;
    const records: ReleaseRecord[] = [];
    for (const { key } of await this.list(under)) {
      if (!key.endsWith('.json')) continue;
      const found = await this.get(key);
      try {
        if (found) records.push(JSON.parse(found.text) as ReleaseRecord);
      } catch {
        // A stray object put there by hand: not a release.
      }
    }
    return records.sort((a, b) => a.publishedAt.localeCompare(b.publishedAt));
  }

  /** One object per file; If-None-Match: * so a published file is never replaced (412: already there, same bytes). */
  async putReleaseFiles(remote: string, id: string, sourceDir: string, files: string[]): Promise<void> {
    const base = `${this.prefix}releases/${assertKnownRemote(remote)}/${id}/`;
    for (const file of files) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: `${base}${file}`,
            Body: await readFile(join(sourceDir, file)),
            ContentType: contentTypeOf(file),
            CacheControl: IMMUTABLE_CACHE,
            IfNoneMatch: '*',
          }),
        );
      } catch (error) {
        // The id names the content: a file already there (or being put) holds these bytes.
        if (status(error) !== 412 && status(error) !== 409) throw error;
      }
    }
  }

  async readReleaseFile(remote: string, id: string, file: string): Promise<ReleaseFile | null> {
    if (!isReleasePath(file) || !isReleaseId(id)) return null;
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}releases/${assertKnownRemote(remote)}/${id}/${file}` }),
      );
      return {
        body: answer.Body as Readable,
        contentType: answer.ContentType ?? contentTypeOf(file),
        length: answer.ContentLength ?? null,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** One writer per object (the replica itself): a plain write. */
  async writeCounts(environment: string, replica: string, tallies: Tallies): Promise<void> {
    if (!REPLICA_NAME.test(replica)) throw new RegistryError('INVALID_INPUT', `invalid replica name ${JSON.stringify(replica)}`);
    const file: CountsFile = { schema: 1, replica, environment, updatedAt: new Date().toISOString(), tallies };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: `${this.prefix}counts/${assertEnvironment(environment)}/${replica}.json`,
        Body: Buffer.from(`${JSON.stringify(file)}\n`),
        ContentType: 'application/json',
      }),
    );
  }

  /** Every replica's counts, summed; an object no replica has written for COUNTS_KEPT_DAYS, or one that does not parse, is skipped. */
  async readCounts(environment: string, options: { except?: string } = {}): Promise<Tallies> {
    const under = `${this.prefix}counts/${assertEnvironment(environment)}/`;
    const oldest = Date.now() - COUNTS_KEPT_DAYS * 86_400_000;
    const all: Tallies[] = [];
    for (const { key, modified } of await this.list(under)) {
      const name = key.slice(under.length);
      if (!name.endsWith('.json') || name === `${options.except}.json`) continue;
      if (modified && modified.getTime() < oldest) continue;
      try {
        const found = await this.get(key);
        const tallies = found ? parseCounts(JSON.parse(found.text)) : null;
        if (tallies) all.push(tallies);
      } catch {
        // put there by hand and not JSON: not counted
      }
    }
    return mergeTallies(...all);
  }
}

const COUNTS_KEPT_DAYS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Full jitter, growing per attempt: racing writers spread out instead of colliding again. */
const backoff = (attempt: number, maxMs: number) => Math.random() * Math.min(maxMs, 10 * 2 ** attempt);

const status = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * Another writer changed the object first (412), is writing it now (409), or it was removed
 * since it was read (404 NoSuchKey on If-Match): read it again and retry.
 */
const lostTheRace = (error: unknown) => status(error) === 412 || status(error) === 409 || status(error) === 404;

const isMissing = (error: unknown) =>
  (error as { name?: string }).name === 'NoSuchKey' || (error as { name?: string }).name === 'NotFound' || status(error) === 404;
