#!/usr/bin/env node
// npm test: every check the project has (lint, typecheck and unit suites two at a time, the
// machines have two cores; the API and browser suites alone), then one summary line "N passed, N failed".
//   1. lint        ESLint (eslint.config.js: typescript-eslint, react-hooks, jsx-a11y, the
//                  boundaries between the apps), `prettier --check .`, and the repository tests
//                  (test/): each boundary policy, the style scopes, that every path a comment
//                  or Markdown file names exists, and that no source file passes 400 lines
//   2. typecheck   tsc --noEmit in every workspace that has a typecheck script
//   3. unit        vitest in every workspace but the API and e2e
//   4. api         the API's tests on embedded PGlite, then on PostgreSQL (DATABASE_URL,
//                  default postgres://postgres@127.0.0.1:5432/test; each vitest worker runs on a
//                  copy of its own, api/test/support/worker-databases.ts), the ledger model
//                  at its default size
//   5. model       only when named (`npm test -- model`): the ledger's model-based test at full
//                  strength (api/test/model/), 2,000 sequences on PGlite and 500 on PostgreSQL,
//                  the two at once (about 35 minutes on the shared 2-core machine)
//   6. e2e         Playwright against the whole stack, its API on a fresh PostgreSQL database
//                  (`<name>_e2e` beside DATABASE_URL's) when the server is reachable, else PGlite
//   7. bench       `npm run bench:shell` and `npm run bench:web` in their smoke mode (BENCH_SMOKE=1:
//                  a second per target, the same tables), on the front ends the e2e stage built,
//                  so a bench that no longer runs fails the suite (bench:api's smoke test is in
//                  the api stage)
//   8. skew        version skew (scripts/test-skew.ts): a few main journeys with this commit's
//                  shell and the previous release's remotes, the previous shell and this commit's
//                  remotes, and two builds against one major version of @boatshop/state. The
//                  previous release is the newest `release/*` tag; without one the stage says
//                  so loudly and passes (SKEW_REQUIRED=1 makes that a failure)
// `npm test -- lint unit api` runs only the named stages.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAGES = ['lint', 'typecheck', 'unit', 'api', 'model', 'e2e', 'bench', 'skew'];
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

const requested = process.argv.slice(2);
const unknown = requested.filter((stage) => !STAGES.includes(stage));
if (unknown.length) {
  console.error(`Unknown stage ${unknown.join(', ')}; stages: ${STAGES.join(', ')}`);
  process.exit(2);
}
// The full-strength ledger model takes far longer than the rest together on two cores (about
// 0.27 s of CPU a sequence): asked for by name (`npm test -- model`), not part of a plain run,
// whose api stages run it at its default size (docs/adr/0025).
const ON_REQUEST = ['model'];
const stages = requested.length ? requested : STAGES.filter((stage) => !ON_REQUEST.includes(stage));

const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const workspaces = rootPackage.workspaces.map((folder) => ({
  folder,
  scripts: JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')).scripts ?? {},
}));

/** @type {{ name: string; ok: boolean; seconds: number; note?: string }[]} */
const results = [];

/**
 * Runs one suite. Buffered suites print their output in one piece when done, so two of them
 * can run side by side without interleaving their lines.
 */
function run(name, args, env = process.env, { buffered = false } = {}) {
  if (!buffered) console.log(`\n▶ ${name}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: ROOT, env, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('exit', (code, signal) => {
      const ok = code === 0;
      if (buffered) console.log(`\n▶ ${name}\n${output.trimEnd()}`);
      results.push({ name, ok, seconds: (Date.now() - started) / 1000, note: signal ? `killed by ${signal}` : undefined });
      resolve(ok);
    });
  });
}

/** Two suites at a time: the machines have two cores, and tsc and vitest mostly use one. */
async function runTwoAtATime(suites) {
  const queue = [...suites];
  const lane = async () => {
    for (let suite = queue.shift(); suite; suite = queue.shift()) await run(suite.name, suite.args, process.env, { buffered: true });
  };
  await Promise.all([lane(), lane()]);
}

function withoutDatabaseUrl() {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return env;
}

function reachable(databaseUrl) {
  const url = new URL(databaseUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 5432) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
  });
}

if (stages.includes('lint')) {
  await runTwoAtATime([
    { name: 'lint: ESLint', args: ['run', 'lint', '--silent'] },
    { name: 'lint: Prettier', args: ['run', 'format:check', '--silent'] },
    { name: 'lint: boundary policies', args: ['run', 'lint:boundaries', '--silent'] },
  ]);
}

if (stages.includes('typecheck')) {
  await runTwoAtATime(
    workspaces
      .filter(({ scripts }) => scripts.typecheck)
      .map(({ folder }) => ({ name: `typecheck ${folder}`, args: ['run', 'typecheck', '--silent', '-w', folder] })),
  );
}

if (stages.includes('unit')) {
  await runTwoAtATime(
    workspaces
      .filter(({ folder, scripts }) => scripts.test && folder !== 'api' && folder !== 'e2e')
      .map(({ folder }) => ({ name: `unit ${folder}`, args: ['test', '--silent', '-w', folder] })),
  );
}

/** The API's suite, the ledger model at its default size (36 sequences on PGlite, 20 on PostgreSQL). */
const API_TESTS = ['test', '--silent', '-w', 'api'];

if (stages.includes('api')) {
  await run('api on PGlite', API_TESTS, withoutDatabaseUrl());
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const shown = databaseUrl.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
  if (await reachable(databaseUrl)) {
    await run(`api on PostgreSQL (${shown})`, API_TESTS, { ...process.env, DATABASE_URL: databaseUrl });
  } else {
    const note = `PostgreSQL is unreachable at ${shown}: start it (CI: pg_ctlcluster --skip-systemctl-redirect <version> main start) or set DATABASE_URL`;
    console.error(`\n✗ ${note}`);
    results.push({ name: 'api on PostgreSQL', ok: false, seconds: 0, note });
  }
}

if (stages.includes('model')) {
  // Two vitest runs at once, each spreading its sequences over two worker processes: PGlite's are
  // CPU-bound on one thread each, PostgreSQL's wait on the server in between. The PostgreSQL run
  // makes its worker databases from DATABASE_URL's, as the api stage does (which has finished).
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const model = ['run', 'test:model', '--silent', '-w', 'api'];
  const runs = [run('model on PGlite', model, withoutDatabaseUrl(), { buffered: true })];
  if (await reachable(databaseUrl)) {
    runs.push(run('model on PostgreSQL', model, { ...process.env, DATABASE_URL: databaseUrl }, { buffered: true }));
  } else {
    results.push({ name: 'model on PostgreSQL', ok: false, seconds: 0, note: 'PostgreSQL is unreachable (see the api stage)' });
  }
  await Promise.all(runs);
}

let builtByE2e = false;
if (stages.includes('e2e')) {
  // The journeys' stack builds the five front ends of this commit first (scripts/start.mjs). Its
  // API runs on a fresh database on the PostgreSQL server when one is reachable (faster than the
  // embedded one; e2e/support/stack.ts), else on a fresh PGlite.
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const env = (await reachable(databaseUrl)) ? { ...process.env, E2E_DATABASE_URL: databaseUrl } : process.env;
  builtByE2e = await run('e2e (Playwright)', ['test', '-w', 'e2e'], env);
}

if (stages.includes('bench')) {
  // One at a time: each starts the whole shop on free ports. SKIP_BUILD=1 when the e2e stage has
  // just built this commit's front ends.
  const env = { ...process.env, BENCH_SMOKE: '1', ...(builtByE2e ? { SKIP_BUILD: '1' } : {}) };
  await run('bench:shell (smoke)', ['run', 'bench:shell', '--silent'], env);
  await run('bench:web (smoke)', ['run', 'bench:web', '--silent'], { ...env, SKIP_BUILD: '1' });
}

if (stages.includes('skew')) {
  const started = Date.now();
  console.log('\n▶ version skew');
  const outcome = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/test-skew.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...(builtByE2e ? { SKEW_CURRENT_BUILT: '1' } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => resolve({ ok: code === 0, skipped: output.includes('VERSION SKEW NOT TESTED') }));
  });
  results.push({
    name: 'version skew',
    ok: outcome.ok,
    seconds: (Date.now() - started) / 1000,
    note: outcome.skipped ? 'NOT TESTED (no previous release; see above)' : undefined,
  });
}

console.log('\nSummary');
for (const { name, ok, seconds, note } of results) {
  console.log(`  ${ok ? '✓' : '✗'} ${name} (${seconds.toFixed(1)} s)${note ? `: ${note}` : ''}`);
}
const failed = results.filter((result) => !result.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
