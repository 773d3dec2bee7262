#!/usr/bin/env -S node --import tsx
// The version-skew stage of `npm test` (`npm test -- skew`; alone: `node --import tsx scripts/test-skew.ts`).
// Shells and remotes ship on their own, so shoppers meet mixed versions. This runs a few main
// journeys (e2e/smoke: home → category → product, product → cart, the log-in page, the admin
// pages) against a shell whose remotes come from a release registry, in three mixes:
//   a. this commit's shell   + the PREVIOUS release of every remote
//   b. the PREVIOUS shell    + this commit's remotes
//   c. this commit's shell   + mf-catalog and mf-account built against the next minor (patch
//      below 1.0.0) version of @boatshop/state, the others as they are: two builds against one
//      major version of the shared core work together (the shared core's contract test)
// The PREVIOUS release is the newest tag `release/*` reachable from HEAD that is not HEAD itself
// (`SKEW_BASE=<any git ref>` chooses another). It is exported with `git archive` into a temporary
// folder and built there: node_modules are this checkout's, linked, when every external package
// its lock file names is installed here at the same version (workspace packages always link to
// its own folders), else `npm ci` there; if that fails too the stage is skipped with a loud
// message. No tag (a repository before its first release, or a shallow clone): skipped loudly,
// and a failure when SKEW_REQUIRED=1 (CI once the first tag exists). Without a reachable tag the newest
// release recorded in release-tags.txt (tag and commit) is used: a clone without tags still has commits.
// Every mix also checks that a catalogue release with a server build is rendered with it by the
// shell's server (mix a: this shell running the previous release's server build).
// Exit code 0 ok or skipped, 1 failed.
// The API is this commit's (on embedded PGlite), started once for every mix.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { FileRegistryStore, compatibilityProblems, promote, publishRelease, readSingletons } from '@boatshop/release-registry';
import { FRONT_ENDS, REMOTE_FOLDERS as REMOTES, type RemoteFolder } from '@boatshop/remotes';
import { isAncestorOfHead, linkNodeModules, missingPackages, readLock, recordedReleases } from './skew-trees';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The journeys of e2e/smoke run in every mix (titles, as a Playwright --grep). */
const JOURNEYS = process.env.SKEW_JOURNEYS ?? 'catalog: home page|cart: home|account: the log-in page|admin: products';
/** Mix c changes mf-catalog and mf-account only: the journeys through them. */
const JOURNEYS_C = process.env.SKEW_JOURNEYS ?? 'catalog: home page|cart: home|account: the log-in page';
const required = process.env.SKEW_REQUIRED === '1';
const work = mkdtempSync(join(tmpdir(), 'boatshop-skew-'));
const children: ChildProcess[] = [];

const log = (line: string) => console.log(`[skew] ${line}`);
const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });

function finish(code: number, message?: string): never {
  for (const child of children) if (child.exitCode === null && child.pid) signal(child, 'SIGTERM');
  rmSync(work, { recursive: true, force: true });
  if (message) console[code === 0 ? 'log' : 'error'](message);
  process.exit(code);
}

function skip(why: string): never {
  const banner = `\n${'!'.repeat(78)}\n!! VERSION SKEW NOT TESTED: ${why}\n${'!'.repeat(78)}`;
  finish(required ? 1 : 0, required ? `${banner}\n(SKEW_REQUIRED=1: this is a failure)` : banner);
}

function signal(child: ChildProcess, name: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // gone
  }
}
for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => finish(1, `[skew] stopped by ${name}`));

/** The previous release: SKEW_BASE, else the newest release/* tag reachable from HEAD on another commit. */
function previousRelease(): { ref: string; commit: string } {
  const head = git('rev-parse', 'HEAD').stdout.trim();
  if (process.env.SKEW_BASE) {
    const commit = git('rev-parse', '--verify', `${process.env.SKEW_BASE}^{commit}`).stdout.trim();
    if (!commit) finish(1, `[skew] SKEW_BASE=${process.env.SKEW_BASE} is not a commit of this repository`);
    return { ref: process.env.SKEW_BASE, commit };
  }
  const tags = git('tag', '--merged', 'HEAD', '--list', 'release/*', '--sort=-creatordate').stdout.split('\n').filter(Boolean);
  for (const tag of tags) {
    const commit = git('rev-list', '-n', '1', tag).stdout.trim();
    if (commit && commit !== head) return { ref: tag, commit };
  }
  // A clone made without tags (or with them stripped) still has the commits: release-tags.txt
  // records each release tag and its commit, newest last, in the repository itself.
  const recorded = recordedReleases(ROOT).filter(({ commit }) => commit !== head && isAncestorOfHead(ROOT, commit));
  if (recorded.length) return recorded.at(-1)!;
  const shallow = git('rev-parse', '--is-shallow-repository').stdout.trim() === 'true';
  skip(
    tags.length
      ? `the only release/* tag (${tags[0]}) is this commit itself; nothing older to mix with`
      : `no tag release/* is reachable from HEAD${shallow ? ' (this is a shallow clone: fetch with tags and history)' : ''}. ` +
          'Tag each release of main, e.g. git tag release/2026-11-23 && git push origin release/2026-11-23',
  );
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 600_000): boolean {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  if (result.status !== 0) console.error(`[skew] ${command} ${args.join(' ')} (in ${cwd}) failed:\n${result.stdout}\n${result.stderr}`);
  return result.status === 0;
}

function build(tree: string, apps: readonly string[]): void {
  const started = Date.now();
  const ok = run('npm', ['run', 'build', '--silent', ...apps.flatMap((app) => ['-w', app])], tree, {
    ...process.env,
    NODE_ENV: 'production',
  });
  if (!ok) finish(1, `[skew] the build in ${tree} failed`);
  log(`built ${apps.join(', ')} in ${relative(ROOT, tree) || '.'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) finish(1, `[skew] ${what} exited while starting`);
    const up = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  finish(1, `[skew] ${what} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

function start(workspace: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn('npm', ['run', 'start', '--silent', '-w', workspace], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr!.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)));
  child.on('exit', (code) => {
    if (code && code !== 0 && !stopping.has(child)) console.error(`[skew] ${workspace} (${cwd}) stopped with ${code}:\n${tail}`);
  });
  children.push(child);
  return child;
}
const stopping = new Set<ChildProcess>();

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  stopping.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signal(child, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) signal(child, 'SIGKILL');
}

interface Mix {
  name: string;
  /** The tree whose shell (build and server) runs. */
  shell: string;
  /** Per remote, the tree whose build is live. */
  remotes: Record<RemoteFolder, string>;
  journeys: string;
  /** The shell is what changed (deployed under the live remotes), not the remotes (promoted onto it). */
  shellDeployed: boolean;
}

/**
 * Whether the shell's server renders the page at `url` itself (its page data names the remote
 * page it rendered). The first requests load the release's server build and warm the API reads
 * (a render waits for them only briefly, then leaves the page to the browser): asked a few times.
 */
async function serverRendered(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const html = await fetch(url, { headers: { accept: 'text/html' } }).then((response) => response.text());
    if (html.includes('"serverRendered":{"remote":"mf_catalog"')) return true;
    if (attempt === 9) log(`not rendered on the server: ${html.slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

/** One mix: a registry with each remote's build live, the shell's server on it, the journeys against it. */
async function runMix(mix: Mix, apiUrl: string, port: number): Promise<{ ok: boolean; seconds: number; note?: string }> {
  const started = Date.now();
  const store = new FileRegistryStore(mkdtempSync(join(work, 'registry-')));
  const shellSingletons = readSingletons(join(mix.shell, 'shell'));
  for (const remote of REMOTES) {
    const tree = mix.remotes[remote];
    const { version } = JSON.parse(readFileSync(join(tree, remote, 'package.json'), 'utf8')) as { version: string };
    await publishRelease(store, {
      remote,
      distDir: join(tree, remote, 'dist'),
      version,
      commit: null,
      builtAt: new Date().toISOString(),
      singletons: readSingletons(join(tree, remote)),
    });

    // Which side ships: a remote promoted onto a live shell (mixes b, c) passes the promotion's
    // singleton check, or shoppers can never get that mix (a major version of the shared core:
    // the shell goes first), said loudly and not run. A shell deployed under live remotes (mix a)
    // gets no such check, so the mix runs whatever the check says, with the warning printed.
    const singletons = readSingletons(join(tree, remote));
    let against = shellSingletons;
    if (mix.shellDeployed) {
      const problems = compatibilityProblems(singletons, shellSingletons, remote);
      if (problems.length)
        console.log(`[skew] ${mix.name}: WARNING, live ${remote} does not fit this shell: ${problems.map((p) => p.message).join('; ')}`);
      against = singletons;
    }
    try {
      await promote(store, {
        environment: 'production',
        remote,
        version,
        shellSingletons: against,
        smoke: { skip: `version-skew run: ${mix.name}` },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if ((error as { code?: string }).code === 'INCOMPATIBLE') {
        console.log(`[skew] ${mix.name}: NOT RUN, promotion refuses it (shoppers cannot get this mix):\n  ${message}`);
        return { ok: true, seconds: (Date.now() - started) / 1000, note: `not possible: promotion refuses ${remote}` };
      }
      console.error(`[skew] ✗ ${mix.name}: promotion of ${remote} refused: ${message}`);
      return { ok: false, seconds: (Date.now() - started) / 1000 };
    }
  }
  const shellUrl = `http://localhost:${port}`;
  const shell = start('shell', mix.shell, {
    ...process.env,
    SHELL_PORT: String(port),
    PUBLIC_URL: shellUrl,
    API_URL: apiUrl,
    REMOTES_REGISTRY: store.root,
    REMOTES_REGISTRY_TTL_MS: '60000',
  });
  await waitFor(`${shellUrl}/remotes.json`, shell, `the shell of ${mix.name}`, 30_000);
  // With a catalogue release that carries a server build, the shell's server renders the home
  // page with that build (the page data names what it rendered); without one, the browser does.
  const catalogueServerBuild = existsSync(join(mix.remotes['mf-catalog'], 'mf-catalog/dist/server'));
  const rendered = await serverRendered(`${shellUrl}/`);
  log(`${mix.name}: home page ${rendered ? "rendered on the shell's server" : 'left to the browser'}`);
  if (catalogueServerBuild && !rendered) {
    await stop(shell);
    console.error(`[skew] ✗ ${mix.name}: mf-catalog's release has a server build, but the shell did not render the home page with it`);
    return { ok: false, seconds: (Date.now() - started) / 1000 };
  }
  log(`${mix.name}: journeys against ${shellUrl}`);
  const journeys = spawnSync(
    join(ROOT, 'node_modules/.bin/playwright'),
    [
      'test',
      '-c',
      'e2e/smoke.config.ts',
      '--grep',
      mix.journeys,
      '--reporter=list',
      '--output',
      // Traces and screenshots of a failed journey stay (e2e/test-results is ignored by git).
      join(ROOT, 'e2e/test-results/skew', mix.name.slice(0, 1)),
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, SMOKE_SHELL_URL: shellUrl, SMOKE_WORKERS: '2', FORCE_COLOR: '0' },
      timeout: 300_000,
    },
  );
  await stop(shell);
  const output = `${journeys.stdout}${journeys.stderr}`.trim();
  console.log(
    output
      .split('\n')
      .map((line) => `  ${mix.name.slice(0, 2)} │ ${line}`)
      .join('\n'),
  );
  return { ok: journeys.status === 0, seconds: (Date.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------

const previous = previousRelease();
const previousTree = join(work, 'previous');
log(`previous release: ${previous.ref} (${previous.commit.slice(0, 10)})`);
mkdirSync(previousTree);
const archive = spawnSync('sh', ['-c', `git archive ${previous.commit} | tar -x -C '${previousTree}'`], { cwd: ROOT, encoding: 'utf8' });
if (archive.status !== 0) skip(`git archive ${previous.ref} failed: ${archive.stderr.trim()}`);

const missing = missingPackages(ROOT, readLock(previousTree), readLock(ROOT));
if (missing.length === 0) {
  linkNodeModules(ROOT, previousTree);
} else {
  log(
    `${previous.ref} needs packages not installed here (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}): npm ci there`,
  );
  if (!run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], previousTree, process.env, 480_000)) {
    skip(`npm ci of ${previous.ref} failed (offline, or its lock file cannot be installed here); output above`);
  }
}

// This commit's tree with @boatshop/state at the next compatible version, for mix c.
const minorTree = join(work, 'state-minor');
const files = git('ls-files', '-co', '--exclude-standard', '-z').stdout.split('\0').filter(Boolean);
for (const file of files) {
  if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
  mkdirSync(dirname(join(minorTree, file)), { recursive: true });
  cpSync(join(ROOT, file), join(minorTree, file));
}
const statePackage = join(minorTree, 'packages/state/package.json');
const state = JSON.parse(readFileSync(statePackage, 'utf8')) as { version: string };
const [major, minor, patch] = state.version.split(/[.-]/).map(Number) as [number, number, number];
const bumped = major === 0 ? `0.${minor}.${patch + 1}` : `${major}.${minor + 1}.0`;
writeFileSync(statePackage, `${JSON.stringify({ ...state, version: bumped }, null, 2)}\n`);
linkNodeModules(ROOT, minorTree);
log(`@boatshop/state ${state.version} here, ${bumped} in the copy for mix c`);

// SKEW_CURRENT_BUILT=1: this commit's front ends were just built (npm test's e2e stage).
if (process.env.SKEW_CURRENT_BUILT === '1' && FRONT_ENDS.every((app) => existsSync(join(ROOT, app, 'dist/index.html')))) {
  log("this commit's front ends: built by the e2e stage");
} else {
  build(ROOT, FRONT_ENDS);
}
build(previousTree, FRONT_ENDS);
build(minorTree, ['mf-catalog', 'mf-account']);

// This commit's API on a fresh embedded database, seeded with the demo data the journeys use.
// One shell port for every mix (one after the other): the API knows the shop's origin (PUBLIC_URL).
const shellPort = await getPort();
const apiPort = await getPort();
const apiUrl = `http://127.0.0.1:${apiPort}`;
const api = start('api', ROOT, {
  ...process.env,
  API_PORT: String(apiPort),
  PGLITE_DIR: join(work, 'pglite'),
  DATABASE_URL: '',
  PUBLIC_URL: `http://localhost:${shellPort}`,
  LOG_LEVEL: 'warn',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  // As in the journeys: one address and one demo shopper for every journey's holds.
  MAX_OPEN_HOLDS_PER_ADDRESS: '1000',
  MAX_OPEN_HOLDS_PER_ACCOUNT: '1000',
});
await waitFor(`${apiUrl}/api/health`, api, 'the API', 180_000);

const all = (tree: string) => Object.fromEntries(REMOTES.map((remote) => [remote, tree])) as Mix['remotes'];
const mixes: Mix[] = [
  { name: `a. this shell + remotes of ${previous.ref}`, shell: ROOT, remotes: all(previousTree), journeys: JOURNEYS, shellDeployed: true },
  {
    name: `b. shell of ${previous.ref} + these remotes`,
    shell: previousTree,
    remotes: all(ROOT),
    journeys: JOURNEYS,
    shellDeployed: false,
  },
  {
    name: `c. this shell + mf-catalog, mf-account on @boatshop/state ${bumped}`,
    shell: ROOT,
    remotes: { ...all(ROOT), 'mf-catalog': minorTree, 'mf-account': minorTree },
    journeys: JOURNEYS_C,
    shellDeployed: false,
  },
];
const results: { name: string; ok: boolean; seconds: number; note?: string }[] = [];
for (const mix of mixes) results.push({ name: mix.name, ...(await runMix(mix, apiUrl, shellPort)) });
await stop(api);

console.log('\n[skew] version skew');
for (const { name, ok, seconds, note } of results)
  console.log(`  ${ok ? '✓' : '✗'} ${name} (${seconds.toFixed(1)} s)${note ? `: ${note}` : ''}`);
const failed = results.filter((r) => !r.ok);
finish(
  failed.length ? 1 : 0,
  failed.length
    ? `[skew] ${failed.length} mix(es) failed: a shell and remotes of different releases do not work together (journeys above)`
    : undefined,
);
