#!/usr/bin/env node
// npm run bench:shell — the shell server's throughput for a product page's HTML (head built on
// the server from the API, cached) beside a static file it serves (the shell's main script),
// with autocannon on loopback. Starts the production stack on free ports unless BENCH_URL
// points at a running shop. Server, API and load generator share the machine: compare the two
// figures of one run, not runs on different machines. Prints figures; asserts nothing.
// BENCH_SMOKE=1: one second per target and the same table, failing when a target answered
// nothing or answered an error (the bench stage of npm test runs it, so a bench that no longer
// runs fails).
import autocannon from 'autocannon';
import { aProductPath, startStack } from './bench-stack.mjs';

const SMOKE = process.env.BENCH_SMOKE === '1';
const DURATION_S = SMOKE ? 1 : Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

function run(url, headers) {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
}

const stack = await startStack();
try {
  const productPath = await aProductPath(stack.url);
  const html = await (await fetch(`${stack.url}${productPath}`, { headers: { accept: 'text/html' } })).text();
  const script = /<script[^>]*src="([^"]+\.js)"/.exec(html)?.[1];
  if (!script) throw new Error('the product page names no script');
  const targets = [
    { label: `product page HTML ${productPath.slice(0, 17)}…`, url: `${stack.url}${productPath}`, headers: { accept: 'text/html' } },
    { label: `static file ${script}`, url: `${stack.url}${script}`, headers: {} },
  ];
  console.log(`\nShell server ${stack.url}, autocannon ${CONNECTIONS} connections x ${DURATION_S} s each\n`);
  console.log('target'.padEnd(52) + 'req/s'.padStart(9) + 'p50 ms'.padStart(9) + 'p99 ms'.padStart(9) + 'non-2xx'.padStart(9));
  const results = [];
  for (const target of targets) {
    await run(target.url, target.headers); // warm: the head cache, the JIT, the file cache
    const result = await run(target.url, target.headers);
    results.push(result);
    console.log(
      target.label.padEnd(52) +
        result.requests.average.toFixed(0).padStart(9) +
        String(result.latency.p50).padStart(9) +
        String(result.latency.p99).padStart(9) +
        String(result.non2xx).padStart(9),
    );
  }
  console.log(`\nproduct page HTML / static file: ${(results[0].requests.average / results[1].requests.average).toFixed(2)}`);
  if (SMOKE && results.some((result) => result.requests.total === 0 || result.non2xx > 0 || result.errors > 0)) {
    process.exitCode = 1;
    console.error('bench:shell smoke: a target answered nothing or answered errors');
  }
} finally {
  stack.stop();
}
