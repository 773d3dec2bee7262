#!/usr/bin/env node
// npm run bench:shell — the shell server's throughput for a product page's HTML (head built on
// the server from the API, cached) beside a static file it serves (the shell's main script),
// with autocannon on loopback. Starts the production stack on free ports unless BENCH_URL
// points at a running shop. Server, API and load generator share the machine: compare the two
// figures of one run, not runs on different machines. Prints figures; asserts nothing.
// BENCH_SMOKE=1: one second per target and the same table, failing when a target answered
// nothing or answered an error (the bench stage of npm test runs it, so a bench that no longer
// runs fails).
// BENCH_COMPARE="before=http://localhost:32000,after=http://localhost:33000": no stack started;
// each target is measured on each of those running shops in turn and printed in one table, with
// the machine's load average before and after.
import autocannon from 'autocannon';
import { aProductPath, compareTargets, load, startStack } from './bench-stack.mjs';

const SMOKE = process.env.BENCH_SMOKE === '1';
const DURATION_S = SMOKE ? 1 : Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const COMPARE = compareTargets();

function run(url, headers) {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
}

/** A product page and the main script of one shop, as autocannon targets. */
async function targetsOf(name, url) {
  const productPath = await aProductPath(url);
  const html = await (await fetch(`${url}${productPath}`, { headers: { accept: 'text/html' } })).text();
  // The shell's main script, named in a script tag or (a page started after paint) in the after-paint script's list.
  const script = /"(\/main\.[0-9a-f]+\.js)"/.exec(html.replace(/&#34;/g, '"'))?.[1] ?? /<script[^>]*src="([^"]+\.js)"/.exec(html)?.[1];
  if (!script) throw new Error(`${name}: the product page names no script`);
  const prefix = COMPARE.length > 0 ? `${name}: ` : '';
  return [
    { label: `${prefix}product page HTML ${productPath.slice(0, 17)}…`, url: `${url}${productPath}`, headers: { accept: 'text/html' } },
    { label: `${prefix}static file ${script}`, url: `${url}${script}`, headers: {} },
  ];
}

const stack = COMPARE.length > 0 ? { url: null, stop: () => {} } : await startStack();
try {
  const shops = COMPARE.length > 0 ? COMPARE : [{ name: 'now', url: stack.url }];
  const perShop = await Promise.all(shops.map((shop) => targetsOf(shop.name, shop.url)));
  console.log(
    `\nShell server(s) ${shops.map((shop) => shop.url).join(', ')}, autocannon ${CONNECTIONS} connections x ${DURATION_S} s each (${load()})\n`,
  );
  console.log('target'.padEnd(64) + 'req/s'.padStart(9) + 'p50 ms'.padStart(9) + 'p99 ms'.padStart(9) + 'non-2xx'.padStart(9));
  const results = [];
  // The product pages of every shop first, then the static files, so load falls on each alike.
  for (const index of [0, 1]) {
    for (const targets of perShop) {
      const target = targets[index];
      await run(target.url, target.headers); // warm: the head cache, the JIT, the file cache
      const result = await run(target.url, target.headers);
      results.push({ target, result });
      console.log(
        target.label.padEnd(64) +
          result.requests.average.toFixed(0).padStart(9) +
          String(result.latency.p50).padStart(9) +
          String(result.latency.p99).padStart(9) +
          String(result.non2xx).padStart(9),
      );
    }
  }
  console.log(`(${load()})`);
  const rate = (label) => results.find((entry) => entry.target.label === label)?.result.requests.average ?? NaN;
  perShop.forEach((targets, index) => {
    const ratio = (rate(targets[0].label) / rate(targets[1].label)).toFixed(2);
    console.log(`${COMPARE.length > 0 ? `${shops[index].name}: ` : ''}product page HTML / static file: ${ratio}`);
  });
  for (const [index, targets] of perShop.entries()) {
    if (index === 0) continue;
    console.log(
      `${shops[index].name}: product page HTML / ${shops[0].name}'s: ${(rate(targets[0].label) / rate(perShop[0][0].label)).toFixed(2)}`,
    );
  }
  if (SMOKE && results.some(({ result }) => result.requests.total === 0 || result.non2xx > 0 || result.errors > 0)) {
    process.exitCode = 1;
    console.error('bench:shell smoke: a target answered nothing or answered errors');
  }
} finally {
  stack.stop();
}
