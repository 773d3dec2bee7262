import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { refuseProduction } from './production-guard.js';

/**
 * An S3-compatible object store for development and tests: s3rver 3 (path-style, S3's XML
 * errors, files in a temporary folder) behind a thin HTTP front that adds what s3rver lacks,
 * conditional writes, exactly as AWS documents them for PutObject:
 *   - `If-None-Match: *` when the key exists, or `If-Match: <etag>` when its ETag differs → 412
 *     PreconditionFailed, nothing written; `If-Match` on a missing key → 404 NoSuchKey;
 *   - a conditional write to a key while another conditional write to it is in flight → 409
 *     ConditionalRequestConflict, nothing written (the client retries).
 * It also makes each write atomic for readers, as S3 is (s3rver writes an object's bytes and
 * then its ETag in place): reads of a key wait for a write to it to end. Everything else passes
 * through untouched, signature included. Credentials are s3rver's fixed development pair.
 */
export const S3_DEFAULTS = { port: 4569, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' } as const;

export interface S3StandinOptions {
  port?: number;
  buckets?: string[];
  /** Where s3rver keeps the objects; a temporary folder (removed on close) when not given. */
  directory?: string;
}

export interface RunningS3Standin {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  close(): Promise<void>;
}

export async function startS3Standin(options: S3StandinOptions = {}): Promise<RunningS3Standin> {
  refuseProduction('The S3 stand-in');
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'boatshop-s3-')));
  const backend = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: (options.buckets ?? ['boatshop-releases']).map((name) => ({ name, configs: [] })),
  });
  const { port: backendPort } = (await backend.run()) as AddressInfo;

  const locks = new KeyLocks();

  /** Forwards the request as it came; `done` runs once the answer has been passed on (or failed). */
  const pass = (req: IncomingMessage, res: ServerResponse, done: () => void = () => {}) => {
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      done();
    };
    res.on('close', finish);
    const upstream = forward(
      { host: '127.0.0.1', port: backendPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('end', finish);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      finish();
      res.destroy(error);
    });
    req.pipe(upstream);
  };

  /** The key's current ETag (quoted, as S3 sends it), or null when there is no such object. */
  const currentEtag = (path: string) =>
    new Promise<string | null>((resolve, reject) => {
      const head = forward({ host: '127.0.0.1', port: backendPort, method: 'HEAD', path }, (answer) => {
        answer.resume();
        if (answer.statusCode === 404) resolve(null);
        else if (answer.statusCode === 200) resolve(String(answer.headers.etag ?? ''));
        else reject(new Error(`HEAD ${path} answered ${answer.statusCode}`));
      });
      head.on('error', reject);
      head.end();
    });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const objectRequest = url.pathname.split('/').filter(Boolean).length >= 2 && !url.searchParams.has('uploadId');
    if (!objectRequest) return pass(req, res);
    const key = url.pathname;
    const reading = req.method === 'GET' || req.method === 'HEAD';
    const ifMatch = req.headers['if-match'];
    const ifNoneMatch = req.headers['if-none-match'];
    const conditionalPut =
      req.method === 'PUT' && (ifMatch !== undefined || ifNoneMatch !== undefined) && !req.headers['x-amz-copy-source'];
    if (!conditionalPut) {
      // s3rver writes an object's bytes and then its ETag in place: readers wait for a write to
      // end (and a write for the reads under way), so they see the old object or the new one.
      void locks.acquire(key, !reading).then((release) => pass(req, res, release));
      return;
    }
    if (locks.conditionalInFlight.has(key)) {
      req.resume();
      return sendError(
        res,
        409,
        'ConditionalRequestConflict',
        'A conditional request to this object is in progress. Retry the request.',
        key,
      );
    }
    locks.conditionalInFlight.add(key);
    void locks.acquire(key, true).then(async (release) => {
      const done = () => {
        locks.conditionalInFlight.delete(key);
        release();
      };
      try {
        const etag = await currentEtag(key);
        const holds =
          ifNoneMatch !== undefined
            ? ifNoneMatch.trim() === '*' && etag === null
            : etag !== null && ifMatch!.split(',').some((given) => sameEtag(given, etag));
        if (holds) return pass(req, res, done);
        req.resume();
        if (ifNoneMatch === undefined && etag === null) sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.', key);
        else sendError(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', key);
      } catch (error) {
        req.resume();
        sendError(res, 500, 'InternalError', (error as Error).message, key);
      }
      done();
    });
  });
  server.listen(options.port ?? S3_DEFAULTS.port, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accessKeyId: S3_DEFAULTS.accessKeyId,
    secretAccessKey: S3_DEFAULTS.secretAccessKey,
    region: S3_DEFAULTS.region,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await backend.close();
      if (!options.directory) await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Per object key: shared holds for reads, exclusive ones for writes, granted in arrival order. */
class KeyLocks {
  readonly conditionalInFlight = new Set<string>();
  private readonly held = new Map<string, { readers: number; writer: boolean; waiting: { exclusive: boolean; grant: () => void }[] }>();

  acquire(key: string, exclusive: boolean): Promise<() => void> {
    let lock = this.held.get(key);
    if (!lock) this.held.set(key, (lock = { readers: 0, writer: false, waiting: [] }));
    const entry = lock;
    return new Promise((resolve) => {
      const grant = () => {
        if (exclusive) entry.writer = true;
        else entry.readers += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          if (exclusive) entry.writer = false;
          else entry.readers -= 1;
          this.next(key);
        });
      };
      entry.waiting.push({ exclusive, grant });
      this.next(key);
    });
  }

  private next(key: string): void {
    const lock = this.held.get(key)!;
    while (lock.waiting.length > 0 && !lock.writer) {
      const first = lock.waiting[0]!;
      if (first.exclusive && lock.readers > 0) return;
      lock.waiting.shift();
      first.grant();
      if (first.exclusive) return;
    }
    if (!lock.writer && lock.readers === 0 && lock.waiting.length === 0) this.held.delete(key);
  }
}

const sameEtag = (given: string, etag: string) => given.trim().replace(/^W\//, '').replaceAll('"', '') === etag.replaceAll('"', '');

function sendError(res: ServerResponse, status: number, code: string, message: string, resource: string): void {
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>` +
    `<Resource>${resource.replace(/[<>&]/g, '')}</Resource><RequestId>stand-in</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
  res.end(xml);
}
