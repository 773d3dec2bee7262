#!/usr/bin/env node
// npm run bench:web — the home page and a product page on a cold cache in headless Chromium:
// JS bytes per origin (raw and gzip), request count and Largest Contentful Paint; then
// the blocking time of /, /search and a product page in Chromium with its CPU slowed 4x; then
// Lighthouse's mobile preset (simulated slow 4G, 4x slower CPU) on the same pages: performance,
// FCP, LCP, TBT, CLS, SEO and accessibility. Starts the production stack on free
// ports unless BENCH_URL points at a running shop. Prints figures; asserts nothing.
// BENCH_RUNS (default 5) runs per page; LIGHTHOUSE_RUNS (default 3) Lighthouse runs per page,
// of which each figure's median is printed; BENCH_LIGHTHOUSE=0 leaves Lighthouse out.
// BENCH_COMPARE="before=http://localhost:32000,after=http://localhost:33000": no stack started;
// every figure is measured on each of those running shops, run after run in turn (so the machine's
// load falls on them alike), and printed side by side. The load average is printed with each table.
// BENCH_SMOKE=1: one run per page and two Lighthouse runs of the home page, the same tables,
// failing when a page loaded no script or Lighthouse gave no score (the bench stage of npm test
// runs it).
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { aProductPath, compareTargets, load, startStack } from './bench-stack.mjs';

const LIGHTHOUSE_VERSION = createRequire(import.meta.url)('lighthouse/package.json').version;

const SMOKE = process.env.BENCH_SMOKE === '1';
const RUNS = SMOKE ? 1 : Number(process.env.BENCH_RUNS ?? 5);
// Two in the smoke mode: on a loaded machine one Lighthouse run now and then ends without a score.
const LIGHTHOUSE_RUNS = SMOKE ? 2 : Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without the background-networking flags Chromium floods the closed network.
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
// The home page's JS at most 130 KB gzip; its largest paint within a second.
const TARGET_GZIP_KB = 130;
const TARGET_LCP_MS = 1000;
const LIGHTHOUSE_TARGETS = 'performance 100, LCP <= 1.5 s, FCP <= 1.0 s, TBT <= 100 ms, CLS 0, SEO 100, accessibility 100';
const COMPARE = compareTargets();

/** The middle value of `values` once sorted (the upper one of an even count); null for none. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : null;
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
    const sizes = await response
      .request()
      .sizes()
      .catch(() => ({ responseBodySize: 0 }));
    entry.files++;
    entry.wire += sizes.responseBodySize;
    entry.raw += body.length;
    entry.gzip += zlib.gzipSync(body, { level: 6 }).length;
    perOrigin.set(origin, entry);
  }
  await context.close();
  return { lcp, requests, perOrigin };
}

/** One page on each target (`{ name, url }`), run after run in turn, then one table per target. */
async function reportPage(browser, label, targets) {
  for (const target of targets) await measure(browser, target.url); // warm the servers (not the browser: each run is a fresh profile)
  const runs = new Map(targets.map((target) => [target.name, []]));
  const loadBefore = load();
  for (let i = 0; i < RUNS; i++) for (const target of targets) runs.get(target.name).push(await measure(browser, target.url));
  console.log(`\n${label} on a cold cache, headless Chromium, ${RUNS} runs per target in turn (${loadBefore}; after: ${load()})`);
  for (const target of targets) printPage(`${target.name} ${target.url}`, runs.get(target.name));
}

function printPage(label, runs) {
  const first = runs[0];
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(`\n${label}\n`);
  console.log('origin'.padEnd(34) + 'js files'.padStart(9) + 'raw KB'.padStart(10) + 'gzip KB'.padStart(10) + 'wire KB'.padStart(10));
  let raw = 0;
  let gzip = 0;
  let wire = 0;
  for (const [origin, e] of first.perOrigin) {
    raw += e.raw;
    gzip += e.gzip;
    wire += e.wire;
    console.log(
      origin.padEnd(34) + String(e.files).padStart(9) + kb(e.raw).padStart(10) + kb(e.gzip).padStart(10) + kb(e.wire).padStart(10),
    );
  }
  console.log('total'.padEnd(34) + ''.padStart(9) + kb(raw).padStart(10) + kb(gzip).padStart(10) + kb(wire).padStart(10));
  console.log("(raw: decoded bytes; gzip: those bytes gzipped at level 6; wire: bytes as sent, after the server's compression)");
  const lcps = runs
    .map((r) => r.lcp)
    .filter((v) => v !== null)
    .sort((a, b) => a - b);
  const medianLcp = median(lcps);
  console.log(`\nrequests: ${first.requests}`);
  console.log(
    `LCP: median ${medianLcp?.toFixed(0)} ms (min ${lcps[0]?.toFixed(0)}, max ${lcps.at(-1)?.toFixed(0)}; ${lcps.map((v) => v.toFixed(0)).join(', ')})`,
  );
  console.log(
    `targets: JS gzip <= ${TARGET_GZIP_KB} KB: ${gzip / 1024 <= TARGET_GZIP_KB ? 'met' : 'NOT met'}; LCP < ${TARGET_LCP_MS} ms: ${medianLcp < TARGET_LCP_MS ? 'met' : 'NOT met'}`,
  );
  if (SMOKE && gzip === 0) smokeFailure(`${label}: no script loaded`);
}

/**
 * The main thread's blocking time as Chromium itself sees it, with the CPU really slowed 4x
 * (`Emulation.setCPUThrottlingRate`, not Lighthouse's simulation): every long task from the first
 * paint until 1.5 s after the shell has started (`#root[data-started]`), each counted above 50 ms.
 */
async function blockingTime(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    const tasks = [];
    Object.assign(globalThis, { benchLongTasks: tasks });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => globalThis.document.getElementById('root')?.dataset.started, null, { timeout: 60_000 });
  await page.waitForTimeout(1500);
  const figures = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const after = globalThis.benchLongTasks.filter(([start]) => start >= paint).map(([, duration]) => duration);
    return { blocking: after.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0), longest: Math.max(0, ...after) };
  });
  await context.close();
  return figures;
}

/** Blocking time of each page on each target, run i of every one before run i + 1 of any. */
async function reportBlocking(browser, pages) {
  const runsOf = new Map(pages.map(({ label }) => [label, []]));
  const loadBefore = load();
  for (let i = 0; i < RUNS; i++) for (const { label, url } of pages) runsOf.get(label).push(await blockingTime(browser, url));
  console.log(
    `\nBlocking time in Chromium at 4x CPU (long tasks after the first paint, each above 50 ms), median of ${RUNS} runs (${loadBefore}; after: ${load()})\n`,
  );
  console.log('page'.padEnd(24) + ['blocking ms', 'range', 'longest ms'].map((title) => title.padStart(14)).join(''));
  for (const [label, runs] of runsOf) {
    const blocking = runs.map((run) => run.blocking);
    const range = `${Math.round(Math.min(...blocking))}–${Math.round(Math.max(...blocking))}`;
    const cells = [Math.round(median(blocking)), range, Math.round(median(runs.map((run) => run.longest)))];
    console.log(label.padEnd(24) + cells.map((cell) => String(cell).padStart(14)).join(''));
  }
}

function smokeFailure(what) {
  process.exitCode = 1;
  console.error(`bench:web smoke: ${what}`);
}

/**
 * Lighthouse's default config is the mobile preset: Moto G Power screen, slow 4G and a 4x CPU
 * slowdown, simulated. Run i of every page before run i + 1 of any, so load falls on all alike.
 */
async function lighthouseFigures(pages) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS] });
  try {
    const runsOf = new Map(pages.map(({ label }) => [label, []]));
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      for (const { label, url } of pages) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'seo', 'accessibility'],
        });
        const { categories, audits, runtimeError } = result.lhr;
        if (runtimeError) console.error(`Lighthouse on ${label}: ${runtimeError.code}: ${runtimeError.message}`);
        const score = (name) => (categories[name]?.score == null ? null : Math.round(categories[name].score * 100));
        runsOf.get(label).push({
          performance: score('performance'),
          lcp: audits['largest-contentful-paint']?.numericValue / 1000,
          fcp: audits['first-contentful-paint']?.numericValue / 1000,
          tbt: audits['total-blocking-time']?.numericValue,
          cls: audits['cumulative-layout-shift']?.numericValue,
          seo: score('seo'),
          accessibility: score('accessibility'),
          failed: ['seo', 'accessibility'].flatMap((name) =>
            categories[name].auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0).map((ref) => ref.id),
          ),
        });
        if (process.env.LIGHTHOUSE_DETAILS === '1') printDetails(label, result.lhr);
      }
    }
    return pages.map(({ label }) => {
      const runs = runsOf.get(label);
      // A run that ended without a score (it happens on a loaded machine) counts in no figure.
      const scored = runs.filter((r) => r.performance != null);
      const medianOf = (key) => median(runs.map((r) => r[key]).filter((v) => v != null && !Number.isNaN(v)));
      return {
        label,
        performance: medianOf('performance'),
        performanceRange: [Math.min(...scored.map((r) => r.performance)), Math.max(...scored.map((r) => r.performance))],
        lcp: medianOf('lcp'),
        fcp: medianOf('fcp'),
        tbt: medianOf('tbt'),
        cls: medianOf('cls'),
        seo: medianOf('seo'),
        accessibility: medianOf('accessibility'),
        failed: [...new Set(runs.flatMap((r) => r.failed))],
      };
    });
  } finally {
    await chrome.kill();
  }
}

/** LIGHTHOUSE_DETAILS=1: where the time of one run went (metrics, LCP phases, opportunities, main-thread work, long tasks). */
function printDetails(label, lhr) {
  const a = lhr.audits;
  const ms = (id) => (a[id]?.numericValue == null ? '–' : `${Math.round(a[id].numericValue)} ms`);
  console.log(
    `\n[${label}] perf ${Math.round(lhr.categories.performance.score * 100)}: FCP ${ms('first-contentful-paint')}, LCP ${ms('largest-contentful-paint')}, TBT ${ms('total-blocking-time')}, SI ${ms('speed-index')}`,
  );
  const phases = a['largest-contentful-paint-element']?.details?.items?.[1]?.items;
  if (phases) console.log('  LCP phases: ' + phases.map((p) => `${p.phase} ${Math.round(p.timing)} ms`).join(', '));
  const lcpElement = a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
  if (lcpElement) console.log(`  LCP element: ${lcpElement.slice(0, 160)}`);
  for (const audit of Object.values(a)) {
    if (audit.details?.type === 'opportunity' && (audit.details.overallSavingsMs ?? 0) > 0) {
      console.log(
        `  ${audit.id}: ${Math.round(audit.details.overallSavingsMs)} ms` +
          (audit.details.items ?? [])
            .slice(0, 4)
            .map(
              (i) =>
                ` | ${i.url ?? ''} ${i.wastedMs ? Math.round(i.wastedMs) + ' ms' : ''}${i.wastedBytes ? Math.round(i.wastedBytes / 1024) + ' KB' : ''}`,
            )
            .join(''),
      );
    }
  }
  const bootup = a['bootup-time']?.details?.items ?? [];
  console.log(
    '  script boot-up: ' +
      bootup
        .slice(0, 5)
        .map((i) => `${String(i.url).split('/').pop()} ${Math.round(i.total)} ms`)
        .join(', '),
  );
  const longTasks = a['long-tasks']?.details?.items ?? [];
  console.log(
    '  long tasks: ' +
      longTasks
        .slice(0, 8)
        .map((i) => `${String(i.url).split('/').pop() || i.url} ${Math.round(i.duration)} ms at ${Math.round(i.startTime)} ms`)
        .join(', '),
  );
}

function printLighthouse(rows, loads) {
  const cell = (value, digits = 0) => (value == null || Number.isNaN(value) ? '–' : value.toFixed(digits));
  console.log(
    `\nLighthouse ${LIGHTHOUSE_VERSION}, mobile preset (simulated slow 4G, 4x CPU), median of ${LIGHTHOUSE_RUNS} runs (${loads})\n`,
  );
  console.log(
    'page'.padEnd(24) +
      ['performance', 'range', 'FCP s', 'LCP s', 'TBT ms', 'CLS', 'SEO', 'a11y'].map((title) => title.padStart(12)).join(''),
  );
  for (const row of rows) {
    console.log(
      row.label.padEnd(24) +
        [
          cell(row.performance),
          row.performanceRange.join('–'),
          cell(row.fcp, 2),
          cell(row.lcp, 2),
          cell(row.tbt),
          cell(row.cls, 3),
          cell(row.seo),
          cell(row.accessibility),
        ]
          .map((value) => value.padStart(12))
          .join(''),
    );
  }
  for (const row of rows) if (row.failed.length) console.log(`${row.label}: failing SEO/accessibility audits: ${row.failed.join(', ')}`);
  console.log(`targets: ${LIGHTHOUSE_TARGETS}`);
}

const stack = COMPARE.length > 0 ? { url: null, stop: () => {} } : await startStack();
const targets = COMPARE.length > 0 ? COMPARE : [{ name: 'now', url: stack.url }];
let browser;
try {
  // Inside try: a browser that cannot start must not leave the stack running.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  // Each shop has its own catalogue: each target's product page is its newest product.
  const products = await Promise.all(targets.map(async (target) => ({ ...target, url: `${target.url}${await aProductPath(target.url)}` })));
  await reportPage(
    browser,
    'Home page',
    targets.map((target) => ({ ...target, url: `${target.url}/` })),
  );
  await reportPage(browser, 'Product page', products);
  const named = (label, target) => (targets.length > 1 ? `${label} [${target.name}]` : label);
  const pages = targets.flatMap((target, index) => [
    { label: named('/', target), url: `${target.url}/` },
    { label: named('/search', target), url: `${target.url}/search` },
    { label: named('product', target), url: products[index].url },
  ]);
  await reportBlocking(browser, pages);
  await browser.close();
  if (process.env.BENCH_LIGHTHOUSE !== '0') {
    const loadBefore = load();
    const rows = await lighthouseFigures(SMOKE ? pages.slice(0, 1) : pages);
    printLighthouse(rows, `${loadBefore}; after: ${load()}`);
    if (SMOKE && rows.some((row) => row.performance == null)) smokeFailure('Lighthouse gave no performance score');
  }
} finally {
  await browser?.close().catch(() => {});
  stack.stop();
}
