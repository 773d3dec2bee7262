#!/usr/bin/env node
// npm run bench:web — the home page on a cold cache in headless Chromium: JS bytes per origin
// (raw and gzip), request count and Largest Contentful Paint. Starts the production stack on
// free ports unless BENCH_URL points at a running shop. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_GZIP_KB = 180;
const TARGET_LCP_MS = 1000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, ms) {
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

async function startStack() {
  const names = ['SHELL_PORT', 'MF_CATALOG_PORT', 'MF_CART_CHECKOUT_PORT', 'MF_ACCOUNT_PORT', 'MF_ADMIN_PORT', 'API_PORT', 'DEV_OIDC_PORT', 'DEV_STRIPE_PORT', 'DEV_SMTP_PORT', 'DEV_MAILBOX_PORT'];
  const env = { ...process.env, PGLITE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'boatshop-bench-')) };
  for (const name of names) env[name] = String(await freePort());
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

async function measure(browser, url) {
  // A new context is a new profile: nothing cached.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const scripts = [];
  let requests = 0;
  page.on('request', () => requests++);
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const lcp = await page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries.at(-1)?.startTime ?? null);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(null), 3000);
      }),
  );
  const perOrigin = new Map();
  for (const response of scripts) {
    const body = await response.body().catch(() => Buffer.alloc(0));
    const origin = new URL(response.url()).origin;
    const entry = perOrigin.get(origin) ?? { files: 0, raw: 0, gzip: 0, wire: 0 };
    const sizes = await response.request().sizes().catch(() => ({ responseBodySize: 0 }));
    entry.files++;
    entry.wire += sizes.responseBodySize;
    entry.raw += body.length;
    entry.gzip += zlib.gzipSync(body, { level: 6 }).length;
    perOrigin.set(origin, entry);
  }
  await context.close();
  return { lcp, requests, perOrigin };
}

const external = process.env.BENCH_URL;
const stack = external ? { url: external, stop: () => {} } : await startStack();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
try {
  await measure(browser, stack.url); // warm the servers (not the browser: each run is a fresh profile)
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, stack.url));
  const first = runs[0];
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(`\nHome page ${stack.url}/ on a cold cache, headless Chromium, ${RUNS} runs\n`);
  console.log('origin'.padEnd(34) + 'js files'.padStart(9) + 'raw KB'.padStart(10) + 'gzip KB'.padStart(10) + 'wire KB'.padStart(10));
  let raw = 0;
  let gzip = 0;
  let wire = 0;
  for (const [origin, e] of first.perOrigin) {
    raw += e.raw;
    gzip += e.gzip;
    wire += e.wire;
    console.log(origin.padEnd(34) + String(e.files).padStart(9) + kb(e.raw).padStart(10) + kb(e.gzip).padStart(10) + kb(e.wire).padStart(10));
  }
  console.log('total'.padEnd(34) + ''.padStart(9) + kb(raw).padStart(10) + kb(gzip).padStart(10) + kb(wire).padStart(10));
  console.log('(raw: decoded bytes; gzip: those bytes gzipped at level 6; wire: bytes as sent, after the server\'s compression)');
  const lcps = runs.map((r) => r.lcp).filter((v) => v !== null).sort((a, b) => a - b);
  const median = lcps[Math.floor(lcps.length / 2)];
  console.log(`\nrequests: ${first.requests}`);
  console.log(`LCP: median ${median?.toFixed(0)} ms (min ${lcps[0]?.toFixed(0)}, max ${lcps.at(-1)?.toFixed(0)})`);
  console.log(`targets: JS gzip <= ${TARGET_GZIP_KB} KB: ${gzip / 1024 <= TARGET_GZIP_KB ? 'met' : 'NOT met'}; LCP < ${TARGET_LCP_MS} ms: ${median < TARGET_LCP_MS ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
  stack.stop();
}
