import { spawnSync } from 'node:child_process';
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
    expect(conf).toContain('proxy_next_upstream error timeout http_502 http_503;');
    expect(conf).toMatch(/location = \/api\/metrics \{\s+return 404;/);
    expect(conf).not.toContain('resolver 127.0.0.11');
  });

  it.runIf(existsSync(NGINX))('passes nginx -t', () => {
    const result = spawnSync(NGINX, ['-t', '-c', path, '-e', join(workDir, 'logs', 'error.log')], { encoding: 'utf8' });
    expect(result.stderr).toContain('syntax is ok');
    expect(result.status).toBe(0);
  });
});
