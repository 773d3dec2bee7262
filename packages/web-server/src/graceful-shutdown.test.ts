import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// A front end's server process (serve.ts) on SIGTERM: a download in flight is finished and the
// process exits 0; a client that never reads does not hold it past SHUTDOWN_GRACE_MS (exit 1).

const FILE_BYTES = 8 * 1024 * 1024;
let dist: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'graceful-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>remote</title>');
  // Random bytes do not compress, and a .bin is not compressed anyway: the response stays this big.
  writeFileSync(join(dist, 'big.bin'), Buffer.alloc(FILE_BYTES, 7));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function serve(graceMs: number): Promise<{ child: ChildProcess; port: number; output: string[]; exited: Promise<number | null> }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'test', 'serve-remote.ts'), dist], {
    env: { ...process.env, HOST: '127.0.0.1', MF_CATALOG_PORT: String(port), SHUTDOWN_GRACE_MS: String(graceMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes(' serving ')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`exited ${code}: ${output.join('')}`)));
  });
  return { child, port, output, exited };
}

/** Asks for the big file and reads nothing until `read()`: the response stays in flight. */
function slowDownload(port: number): Promise<{ read(): void; bodyBytes: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n');
      socket.pause();
      const chunks: Buffer[] = [];
      const bodyBytes = new Promise<number>((done) => {
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        const finish = () => {
          const all = Buffer.concat(chunks);
          const headerEnd = all.indexOf('\r\n\r\n');
          done(headerEnd < 0 ? 0 : all.length - headerEnd - 4);
        };
        socket.on('close', finish);
        socket.on('error', finish);
      });
      resolve({ read: () => socket.resume(), bodyBytes });
    });
    socket.on('error', reject);
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);

describe('SIGTERM on a front end server', () => {
  it('finishes the download in flight, then exits 0', async () => {
    const server = await serve(15_000);
    const download = await slowDownload(server.port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await within(server.exited, 0)).toBe('still running');
    download.read();
    expect(await download.bodyBytes).toBe(FILE_BYTES);
    expect(await within(server.exited, 10_000)).toBe(0);
    expect(server.output.join('')).toContain('mf-catalog closing on SIGTERM');
  }, 60_000);

  it('exits 1 at the deadline when a client never reads', async () => {
    const server = await serve(1000);
    await slowDownload(server.port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await within(server.exited, 10_000)).toBe(1);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(900);
  }, 60_000);
});
