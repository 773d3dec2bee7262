import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore } from '@boatshop/release-registry';
import { expect, test } from '../support/fixtures';
import { releaseStackBuild, startRegistryShell, type RegistryShell } from '../support/registry-shell';
import { REPO_ROOT } from '../support/stack';

// Remotes own their routes: a copy of mf-catalog's source gets one more page (a
// fixture page module and one line of route data), is built with rspack, released and promoted
// with the registry's commands, and the shell's server, started before and never rebuilt or
// restarted, serves the page with the guard and the layout the route data names. A release of
// another remote claiming the same path is refused at release time.

test.describe.configure({ mode: 'serial' });

let shell: RegistryShell | undefined;
let origin: string;
let registry: string;
let workspace: string;

/** The registry's command line, as a team runs it (npm run release/promote), on this test's registry and copies. */
function registryCommand(...argv: string[]): { status: number | null; output: string } {
  const run = spawnSync(join(REPO_ROOT, 'node_modules/.bin/tsx'), [join(REPO_ROOT, 'packages/release-registry/src/cli.ts'), ...argv], {
    cwd: REPO_ROOT,
    env: { ...process.env, REMOTES_REGISTRY: registry, BOATSHOP_REPO: workspace },
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  registry = mkdtempSync(join(tmpdir(), 'boatshop-e2e-routes-registry-'));
  // Inside the repository, so the copy resolves the workspace's packages like the real remote.
  workspace = join(REPO_ROOT, 'e2e/test-results', `routes-journey-${process.pid}-${Date.now()}`);
  const app = join(workspace, 'mf-catalog');
  mkdirSync(app, { recursive: true });
  // The live shell, as promotion reads it (its shared singletons): the repository's.
  mkdirSync(join(workspace, 'shell'));
  cpSync(join(REPO_ROOT, 'shell/package.json'), join(workspace, 'shell/package.json'));
  for (const part of ['src', 'rspack.config.ts', 'package.json'])
    cpSync(join(REPO_ROOT, 'mf-catalog', part), join(app, part), { recursive: true });
  cpSync(join(REPO_ROOT, 'e2e/fixtures/regattas-page.tsx'), join(app, 'src/pages/regattas.tsx'));
  const config = readFileSync(join(app, 'rspack.config.ts'), 'utf8');
  writeFileSync(join(app, 'rspack.config.ts'), config.replace('exposes: {', "exposes: {\n    './Regattas': './src/pages/regattas.tsx',"));
  const routes = readFileSync(join(app, 'src/routes.ts'), 'utf8');
  writeFileSync(
    join(app, 'src/routes.ts'),
    routes.replace(
      '] as const',
      "  { path: '/regattas', module: './Regattas', access: 'signed-in', layout: 'main', title: 'Regattas' },\n] as const",
    ),
  );
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(app, 'package.json'), JSON.stringify({ ...pkg, version: '0.2.0-regattas' }, null, 2));

  const build = spawnSync(join(REPO_ROOT, 'node_modules/.bin/rspack'), ['build', '--config', join(app, 'rspack.config.ts')], {
    cwd: app,
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
  });
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  expect(JSON.parse(readFileSync(join(app, 'dist/routes.json'), 'utf8')).routes).toContainEqual(
    expect.objectContaining({ path: '/regattas', module: './Regattas' }),
  );

  // The sign-in page comes from mf_account: served by this shell too (released from the stack's
  // build), since the stack's remotes let only the stack's shell origin fetch their files.
  await releaseStackBuild(registry, 'mf-account');

  shell = await startRegistryShell(registry);
  origin = shell.origin;
});

test.afterAll(async () => {
  await shell?.stop();
  for (const dir of [registry, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a page a remote adds is served by the running shell once released, with its guard and layout', async ({ browser, signedInState }) => {
  // Before the release: no remote declares /regattas.
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const before = await page.goto(`${origin}/regattas`);
  expect(before?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();

  const released = registryCommand('release', 'mf-catalog', '--no-build');
  expect(released.status, released.output).toBe(0);
  expect(released.output).toMatch(/Published mf-catalog 0\.2\.0-regattas-[0-9a-f]{12}/);
  const promoted = registryCommand('promote', 'mf-catalog', '0.2.0-regattas', '--no-smoke', 'this journey checks the new page itself');
  expect(promoted.status, promoted.output).toBe(0);

  // The same shell, on the next page load: /regattas is a signed-in page, so a visitor goes to /login.
  const after = await page.goto(`${origin}/regattas`);
  expect(after?.status()).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'log in' })).toBeVisible();
  await visitor.close();

  // A shopper sees it in the main layout: header, content, footer, no dashboard sidebar.
  const shopper = await browser.newContext({ storageState: await signedInState('shopper') });
  const shopperPage = await shopper.newPage();
  const response = await shopperPage.goto(`${origin}/regattas`);
  expect(await response?.text()).toContain('<title>Regattas | Boat shop</title>');
  await expect(shopperPage.getByRole('main').getByRole('heading', { level: 1, name: 'Regattas' })).toBeVisible();
  await expect(shopperPage.getByText('Races this season for Sandy Shopper')).toBeVisible();
  await expect(shopperPage.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(shopperPage.getByRole('contentinfo')).toBeVisible();
  await expect(shopperPage.getByRole('navigation', { name: 'Dashboard' })).toHaveCount(0);
  await shopper.close();
});

test('a release of another remote claiming that path is refused, and the registry is unchanged', async () => {
  const store = new FileRegistryStore(registry);
  const live = (await store.read('production')).remotes['mf-catalog']!.live!.release;
  // A stand-in build of mf-cart-checkout whose route data claims /regattas (and /cart, its own).
  const app = join(workspace, 'mf-cart-checkout');
  mkdirSync(join(app, 'dist'), { recursive: true });
  cpSync(join(REPO_ROOT, 'mf-cart-checkout/package.json'), join(app, 'package.json'));
  cpSync(join(REPO_ROOT, 'mf-cart-checkout/dist/mf-manifest.json'), join(app, 'dist/mf-manifest.json'));
  writeFileSync(
    join(app, 'dist/routes.json'),
    JSON.stringify({
      schema: 1,
      remote: 'mf_cart_checkout',
      routes: [
        { path: '/cart', module: './Cart', access: 'public', layout: 'main' },
        { path: '/Regattas', module: './Cart', access: 'public', layout: 'main' },
      ],
    }),
  );
  const before = JSON.stringify([await store.read('production'), await store.releases('mf-cart-checkout')]);

  const refused = registryCommand('release', 'mf-cart-checkout', '--no-build');
  expect(refused.status).toBe(1);
  expect(refused.output).toContain('refused (ROUTE_COLLISION)');
  expect(refused.output).toContain(`/Regattas: /regattas is served by mf-catalog ${live} (live in production)`);
  expect(JSON.stringify([await store.read('production'), await store.releases('mf-cart-checkout')])).toBe(before);
});
