import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page, expect, test } from '@playwright/test';
import { shellStarted } from '../support/started';
import { FileRegistryStore, promote, publishRelease, readSingletons, rollback } from '@boatshop/release-registry';
import { startRegistryShell, type RegistryShell } from '../support/registry-shell';
import { REPO_ROOT } from '../support/stack';

// A shell server of its own, reading a release registry of its own (REMOTES_REGISTRY), so the
// promotions here reach no other test. The catalogue's build is published twice: 0.1.0 and
// 0.1.1 (the same files plus one, so another content hash), as `npm run release` would; 0.1.2
// is a broken build whose remote entry throws.

test.describe.configure({ mode: 'serial' });

let store: FileRegistryStore;
let shell: RegistryShell | undefined;
let origin: string;
const ids: string[] = [];
const copies: string[] = [];
const env = 'production';
const shellSingletons = readSingletons(join(REPO_ROOT, 'shell'));

test.beforeAll(async () => {
  store = new FileRegistryStore(mkdtempSync(join(tmpdir(), 'boatshop-e2e-registry-')));
  const dist = join(REPO_ROOT, 'mf-catalog/dist');
  const next = mkdtempSync(join(tmpdir(), 'boatshop-e2e-catalog-'));
  cpSync(dist, next, { recursive: true });
  writeFileSync(join(next, 'release-note.txt'), '0.1.1');
  const broken = mkdtempSync(join(tmpdir(), 'boatshop-e2e-catalog-broken-'));
  cpSync(dist, broken, { recursive: true });
  const entry = (
    JSON.parse(readFileSync(join(dist, 'mf-manifest.json'), 'utf8')) as { metaData: { remoteEntry: { name: string; path?: string } } }
  ).metaData.remoteEntry;
  writeFileSync(join(broken, entry.path ?? '', entry.name), 'throw new Error("a broken release");');
  copies.push(next, broken);
  for (const [version, distDir] of [
    ['0.1.0', dist],
    ['0.1.1', next],
    ['0.1.2', broken],
  ] as const) {
    const { record } = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir,
      version,
      commit: null,
      builtAt: new Date().toISOString(),
      singletons: readSingletons(join(REPO_ROOT, 'mf-catalog')),
    });
    ids.push(record.id);
  }
  await promote(store, { environment: env, remote: 'mf-catalog', version: '0.1.0', shellSingletons });

  shell = await startRegistryShell(store.root, {
    REMOTES_ENV: env,
    // The journeys' other reports come from 127.0.0.1 without a forwarded address.
    REMOTE_FAILURES_PER_MINUTE: '1000',
  });
  origin = shell.origin;
});

test.afterAll(async () => {
  await shell?.stop();
  for (const dir of [store.root, ...copies]) rmSync(dir, { recursive: true, force: true });
});

/** Opens the search page and answers which catalogue release its scripts came from. */
async function catalogueRelease(page: Page): Promise<string> {
  const scripts: { url: string; cacheControl: string | undefined }[] = [];
  page.on('response', (response) => {
    if (/\/releases\/mf-catalog\/[^/]+\/.+\.js$/.test(response.url()))
      scripts.push({ url: response.url(), cacheControl: response.headers()['cache-control'] });
  });
  await page.goto(`${origin}/search`);
  await expect(page.getByRole('heading', { name: 'Browse products' })).toBeVisible();
  // The page's scripts come after its load event: the release is known once the shell has started.
  await shellStarted(page);
  const releases = new Set(scripts.map((s) => /\/releases\/mf-catalog\/([^/]+)\//.exec(s.url)![1]!));
  expect(releases.size, scripts.map((s) => s.url).join('\n')).toBe(1);
  for (const script of scripts) expect(script.cacheControl).toBe('public, max-age=31536000, immutable');
  return [...releases][0]!;
}

test('the running shell follows promotion and rollback on the next page load', async ({ page }) => {
  expect(await catalogueRelease(page)).toBe(ids[0]);

  await promote(store, { environment: env, remote: 'mf-catalog', version: '0.1.1', shellSingletons });
  expect(await catalogueRelease(page)).toBe(ids[1]);

  await rollback(store, { environment: env, remote: 'mf-catalog' });
  expect(await catalogueRelease(page)).toBe(ids[0]);
});

test('a canary reaches part of the visitors, and each keeps their release across reloads', async ({ browser }: { browser: Browser }) => {
  await promote(store, { environment: env, remote: 'mf-catalog', version: '0.1.1', canary: 50, shellSingletons });
  const seen = new Set<string>();
  for (let visitor = 0; visitor < 10; visitor += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const first = await catalogueRelease(page);
    seen.add(first);
    expect(await catalogueRelease(page)).toBe(first);
    await context.close();
    if (seen.size === 2 && visitor >= 3) break;
  }
  // 50%: both releases among ten visitors (all on one side: 1 in 512).
  expect(seen).toEqual(new Set([ids[0], ids[1]]));
  await rollback(store, { environment: env, remote: 'mf-catalog', canaryOnly: true });
});

test('a canary that fails to load is withdrawn by itself, and visitors are back on the live release', async ({
  browser,
}: {
  browser: Browser;
}) => {
  // The verdict wants 20 distinct visitors served the canary and 5 failing, a few per address: up
  // to forty visitors, each from an address of their own behind the proxy (X-Forwarded-For from
  // loopback, which the shell's server trusts as it would nginx), each loading the search page
  // (with its facet counts) up to twice (a reload counts no second load, nor a second failure):
  // about 60 s alone, more beside a second worker.
  test.slow();
  await promote(store, { environment: env, remote: 'mf-catalog', version: '0.1.2', canary: 90, shellSingletons });
  let failing = 0;
  for (let visitor = 0; visitor < 40 && (await store.read(env)).remotes['mf-catalog']!.canary; visitor += 1) {
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${visitor + 1}` } });
    const page = await context.newPage();
    for (let load = 0; load < 2; load += 1) {
      const reported = page
        .waitForResponse((response) => response.url().endsWith('/remote-failures'), { timeout: 15_000 })
        .catch(() => null);
      await page.goto(`${origin}/search`);
      // The server's HTML already shows the heading: the outcome is the shell hydrating the page
      // with the release's scripts, or saying it could not load them.
      const outcome = page.getByRole('alert').or(page.locator('#root[data-started="hydrated"]'));
      await expect(outcome).toBeVisible({ timeout: 20_000 });
      if (!(await page.getByRole('alert').isVisible())) break;
      await expect(page.getByRole('alert')).toContainText('This part of the shop is unavailable right now.');
      expect((await reported)?.status()).toBe(204);
      if (load === 0) failing += 1;
    }
    await context.close();
  }
  expect(failing).toBeGreaterThanOrEqual(5);
  const entry = (await store.read(env)).remotes['mf-catalog']!;
  expect(entry.canary).toBeNull();
  expect(entry.withdrawn).toMatchObject({ release: ids[2], reason: expect.stringMatching(/^failure rate/) });

  // Any visitor, a canary one included, now gets the live release.
  const context = await browser.newContext();
  expect(await catalogueRelease(await context.newPage())).toBe(ids[0]);
  await context.close();
});

test('a release built against another major version of the shared core is refused, and the shop keeps the live release', async ({
  page,
}) => {
  // The same files, recorded as built against @boatshop/state 2: the shell provides 1.x.
  const next = mkdtempSync(join(tmpdir(), 'boatshop-e2e-catalog-major-'));
  cpSync(join(REPO_ROOT, 'mf-catalog/dist'), next, { recursive: true });
  writeFileSync(join(next, 'release-note.txt'), '0.2.0');
  copies.push(next);
  const singletons = readSingletons(join(REPO_ROOT, 'mf-catalog'));
  singletons['@boatshop/state'] = { required: '^2.0.0', built: '2.0.0' };
  await publishRelease(store, {
    remote: 'mf-catalog',
    distDir: next,
    version: '0.2.0',
    commit: null,
    builtAt: new Date().toISOString(),
    singletons,
  });
  const before = JSON.stringify(await store.read(env));

  await expect(
    promote(store, { environment: env, remote: 'mf-catalog', version: '0.2.0', canary: 10, shellSingletons }),
  ).rejects.toMatchObject({
    code: 'INCOMPATIBLE',
    message: expect.stringContaining('@boatshop/state'),
  });

  expect(JSON.stringify(await store.read(env))).toBe(before);
  expect(await catalogueRelease(page)).toBe(ids[0]);
});
