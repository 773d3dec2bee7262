import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { writeClusterNginxConfig } from '../scripts/cluster/nginx.mjs';

const NGINX = '/usr/sbin/nginx';
const workDir = mkdtempSync(join(tmpdir(), 'cluster-nginx-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("start:cluster's nginx configuration (deploy/proxy.conf behind upstream groups)", () => {
  const path: string = writeClusterNginxConfig({
    workDir,
    listenPort: 18080,
    apiPorts: [14101, 14102],
    shellPorts: [13101, 13102],
    remotePorts: { 'mf-catalog': 13001, 'mf-cart-checkout': 13002, 'mf-account': 13003, 'mf-admin': 13004 },
  });
  const conf = readFileSync(path, 'utf8');

  it('balances the API and the shell over every replica and keeps the metrics private', () => {
    expect(conf).toContain('server 127.0.0.1:14101 max_fails=1 fail_timeout=2s;');
    expect(conf).toContain('server 127.0.0.1:14102 max_fails=1 fail_timeout=2s;');
    expect(conf).toContain('server 127.0.0.1:13102 max_fails=1 fail_timeout=2s;');
    expect(conf).toContain('set $api_upstream http://boatshop_api;');
    expect(conf).toContain('proxy_next_upstream error timeout;');
    expect(conf).toMatch(/location = \/api\/metrics \{\s+return 404;/);
    expect(conf).not.toContain('resolver 127.0.0.11');
  });

  it.runIf(existsSync(NGINX))('passes nginx -t', () => {
    const result = spawnSync(NGINX, ['-t', '-c', path, '-e', join(workDir, 'logs', 'error.log')], { encoding: 'utf8' });
    expect(result.stderr).toContain('syntax is ok');
    expect(result.status).toBe(0);
  });
});

/** A port nothing listens on (taken and let go at once). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(existsSync(NGINX))('the cluster behind nginx, one API replica down', () => {
  it("passes the live replica's own 503 on and keeps that replica in rotation", async () => {
    // The live replica sheds one request (503 OVERLOADED) and answers the rest.
    const live: Server = createServer((request, response) => {
      const busy = request.url === '/api/busy';
      response.writeHead(busy ? 503 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(busy ? { error: { code: 'OVERLOADED' } } : { ok: true }));
    });
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    const livePort = (live.address() as AddressInfo).port;
    const deadPort = await freePort();
    const listenPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'cluster-nginx-run-'));
    const conf: string = writeClusterNginxConfig({
      workDir: dir,
      listenPort,
      apiPorts: [deadPort, livePort],
      shellPorts: [deadPort],
      remotePorts: { 'mf-catalog': deadPort, 'mf-cart-checkout': deadPort, 'mf-account': deadPort, 'mf-admin': deadPort },
    });
    const args = ['-c', conf, '-e', join(dir, 'logs', 'error.log')];
    expect(spawnSync(NGINX, args, { encoding: 'utf8' }).status).toBe(0);
    try {
      const url = `http://127.0.0.1:${listenPort}`;
      for (
        let tries = 0;
        tries < 50 &&
        !(await fetch(`${url}/api/ok`).then(
          (r) => r.ok,
          () => false,
        ));
        tries++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const shed = await fetch(`${url}/api/busy`);
      expect(shed.status).toBe(503);
      expect(await shed.json()).toEqual({ error: { code: 'OVERLOADED' } });
      // Right after, within fail_timeout: the live replica still serves (not 502 "no live upstreams").
      const statuses = [];
      for (let n = 0; n < 4; n++) statuses.push((await fetch(`${url}/api/ok`)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
    } finally {
      spawnSync(NGINX, [...args, '-s', 'stop']);
      await new Promise((resolve) => live.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
