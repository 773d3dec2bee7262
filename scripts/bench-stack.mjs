// The production stack on free ports for the bench scripts (bench-web.mjs, bench-shell.mjs),
// started the way `npm start` does it; BENCH_URL points them at a running shop instead.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_PORTS } from '@boatshop/remotes';
import getPort from 'get-port';

export async function waitFor(url, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s`);
}

/** `{ url, stop }`: BENCH_URL as it is, else the whole shop built and started on free ports. */
export async function startStack() {
  if (process.env.BENCH_URL) return { url: process.env.BENCH_URL.replace(/\/+$/, ''), stop: () => {} };
  const env = { ...process.env, PGLITE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'boatshop-bench-')), LOG_LEVEL: 'warn' };
  for (const { env: name } of Object.values(SERVICE_PORTS)) env[name] = String(await getPort());
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/start.mjs', ...(process.env.SKIP_BUILD === '1' ? ['--no-build'] : [])],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://localhost:${env.SHELL_PORT}`;
  try {
    await waitFor(`${url}/api/health`, 240_000);
    await waitFor(`${url}/`, 10_000);
  } catch (err) {
    console.error(log.slice(-4000));
    process.kill(-child.pid, 'SIGTERM');
    throw err;
  }
  return { url, stop: () => process.kill(-child.pid, 'SIGINT') };
}

/** The path of one product page of the running shop (the newest product). */
export async function aProductPath(url) {
  const response = await fetch(`${url}/api/products?limit=1`);
  const page = await response.json();
  const id = page.data?.[0]?.id;
  if (!id) throw new Error('the shop has no products to measure a product page with');
  return `/product/${id}`;
}

/** The running shops to compare (BENCH_COMPARE="name=url,…"), each as { name, url }; empty: the one stack started here. */
export function compareTargets(value = process.env.BENCH_COMPARE ?? '') {
  return value
    .split(',')
    .filter(Boolean)
    .map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), url: pair.slice(pair.indexOf('=') + 1).replace(/\/+$/, '') }));
}

/** The machine's load average (1, 5, 15 min), as `uptime` prints it. */
export const load = () =>
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}`;
