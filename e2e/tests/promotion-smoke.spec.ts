import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { FileRegistryStore, PREVIEW_COOKIE, promote, publishRelease, readSingletons } from '@boatshop/release-registry';
import { startRegistryShell, type RegistryShell } from '../support/registry-shell';
import getPort from 'get-port';
import { REPO_ROOT } from '../support/stack';

// `npm run promote` runs the candidate's smoke journeys (e2e/smoke) in the live shell before any
// shopper sees it: a shell server of this test's own reads a registry of its own, where the
// catalogue's build is live as 0.1.0; 0.1.1 is the same build (plus a file), 0.1.3 a build whose
// product page throws. The command is run as an operator runs it, in its own process.

test.describe.configure({ mode: 'serial' });

let store: FileRegistryStore;
let shell: RegistryShell | undefined;
let origin: string;
const ids: Record<string, string> = {};
const copies: string[] = [];

test.beforeAll(async () => {
  store = new FileRegistryStore(mkdtempSync(join(tmpdir(), 'boatshop-e2e-smoke-registry-')));
  const dist = join(REPO_ROOT, 'mf-catalog/dist');
  const good = mkdtempSync(join(tmpdir(), 'boatshop-e2e-smoke-good-'));
  cpSync(dist, good, { recursive: true });
  writeFileSync(join(good, 'release-note.txt'), '0.1.1');
  const broken = mkdtempSync(join(tmpdir(), 'boatshop-e2e-smoke-broken-'));
  cpSync(dist, broken, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dist, 'mf-manifest.json'), 'utf8')) as {
    exposes: { path: string; assets: { js: { sync: string[] } } }[];
  };
  // A chunk only the product page loads (the others share theirs with the search page: its store and the client).
  const elsewhere = new Set(manifest.exposes.filter((expose) => expose.path !== './Product').flatMap((expose) => expose.assets.js.sync));
  const product = manifest.exposes.find((expose) => expose.path === './Product')!.assets.js.sync.find((file) => !elsewhere.has(file))!;
  writeFileSync(join(broken, product), 'throw new Error("the product page of a broken release");');
  copies.push(good, broken);
  for (const [version, distDir] of [
    ['0.1.0', dist],
    ['0.1.1', good],
    ['0.1.3', broken],
  ] as const) {
    const { record } = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir,
      version,
      commit: null,
      builtAt: new Date().toISOString(),
      singletons: readSingletons(join(REPO_ROOT, 'mf-catalog')),
    });
    ids[version] = record.id;
  }
  await promote(store, {
    environment: 'production',
    remote: 'mf-catalog',
    version: '0.1.0',
    shellSingletons: readSingletons(join(REPO_ROOT, 'shell')),
  });

  shell = await startRegistryShell(store.root);
  origin = shell.origin;
});

test.afterAll(async () => {
  await shell?.stop();
  for (const dir of [store.root, ...copies]) rmSync(dir, { recursive: true, force: true });
});

/** `npm run promote -- <args>` against this test's registry: exit code and everything it printed. */
function promoteCommand(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'packages/release-registry/src/cli.ts'), 'promote', ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, REMOTES_REGISTRY: store.root, SHELL_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const catalogueOf = async (cookie?: string) =>
  ((await (await fetch(`${origin}/remotes.json`, cookie ? { headers: { cookie } } : {})).json()) as { remotes: Record<string, string> })
    .remotes.mf_catalog;

test('promoting a release whose product page throws is refused by the smoke run, naming the journey; the registry is unchanged', async () => {
  test.setTimeout(120_000);
  const before = JSON.stringify(await store.read('production'));
  const { code, output } = await promoteCommand('mf-catalog', '0.1.3', '--canary', '10', '--shell-url', origin);
  expect(code, output).toBe(1);
  expect(output).toContain(
    `refused (SMOKE_FAILED): mf-catalog ${ids['0.1.3']} failed its smoke run in the live shell (${origin}); nothing changed`,
  );
  expect(output).toMatch(/✗ catalog: home page, a category, a product page: /);
  // The journey that does not open a product page passed with the candidate.
  expect(output).toMatch(/passed: catalog: search for a word/);
  expect(JSON.stringify(await store.read('production'))).toBe(before);
  // Shoppers never saw it, and cannot ask for it with a cookie of their own making.
  expect(await catalogueOf()).toContain(ids['0.1.0']);
  const forged = `${PREVIEW_COOKIE}=mf-catalog~${ids['0.1.3']}~production~${Date.now() + 60_000}~${'A'.repeat(43)}`;
  expect(await catalogueOf(forged)).toContain(ids['0.1.0']);
});

test('a good release passes its smoke run and is promoted, the run recorded; without a shell or a reason nothing happens', async () => {
  test.setTimeout(120_000);
  const before = JSON.stringify(await store.read('production'));
  const unreachable = await promoteCommand('mf-catalog', '0.1.1', '--shell-url', `http://127.0.0.1:${await getPort()}`);
  expect(unreachable.code).toBe(1);
  expect(unreachable.output).toMatch(
    /refused \(SMOKE_UNAVAILABLE\): no live shell answers at http:\/\/127\.0\.0\.1:\d+ .*--no-smoke "<reason>"/,
  );
  const noShell = await promoteCommand('mf-catalog', '0.1.1');
  expect(noShell.output).toMatch(/refused \(SMOKE_UNAVAILABLE\): promotion first runs mf-catalog's smoke journeys in the live shell/);
  expect(JSON.stringify(await store.read('production'))).toBe(before);

  const { code, output } = await promoteCommand('mf-catalog', '0.1.1', '--shell-url', origin);
  expect(code, output).toBe(0);
  expect(output).toContain(`mf-catalog ${ids['0.1.1']} is live for everyone in production (smoke run passed: 2 journeys in ${origin})`);
  const live = (await store.read('production')).remotes['mf-catalog']!.live!;
  expect(live).toMatchObject({ release: ids['0.1.1'], smoke: { result: 'passed', journeys: 2, shell: origin } });
  expect(await catalogueOf()).toContain(ids['0.1.1']);
});
