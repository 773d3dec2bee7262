import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { type Role, expect, test } from '../support/fixtures';
import { releaseStackBuild, startRegistryShell, type RegistryShell } from '../support/registry-shell';
import { RemoteServer, type RemoteApp, useRemoteServer } from '../support/remote-server';
import { REPO_ROOT } from '../support/stack';

// Each journey gives one remote a server of its own and points the running shell at it (as a
// deployment does through the remotes manifest), so stopping or re-releasing that remote
// disturbs no other test.

const UNAVAILABLE = 'This part of the shop is unavailable right now.';

interface Case {
  app: RemoteApp;
  mfName: string;
  role: Role;
  path: string;
  heading: string | RegExp;
  /** A header link to a page of another remote, and that page's heading. */
  elsewhere: { link: string; heading: string };
}

const CASES: Case[] = [
  {
    app: 'mf-catalog',
    mfName: 'mf_catalog',
    role: 'visitor',
    path: '/search',
    heading: 'Browse products',
    elsewhere: { link: 'log in', heading: 'log in' },
  },
  {
    app: 'mf-cart-checkout',
    mfName: 'mf_cart_checkout',
    role: 'visitor',
    path: '/cart',
    heading: 'Checkout',
    elsewhere: { link: 'Search', heading: 'Browse products' },
  },
  {
    app: 'mf-account',
    mfName: 'mf_account',
    role: 'visitor',
    path: '/login',
    heading: 'log in',
    elsewhere: { link: 'Search', heading: 'Browse products' },
  },
  {
    app: 'mf-admin',
    mfName: 'mf_admin',
    role: 'admin',
    path: '/admin',
    heading: /.+/,
    elsewhere: { link: 'Search', heading: 'Browse products' },
  },
];

function areaHeading(page: Page, name: string | RegExp) {
  return page.getByRole('main').getByRole('heading', { level: 1, name });
}

for (const remote of CASES) {
  test.describe(`with ${remote.mfName} stopped`, () => {
    test.use({ role: remote.role });
    let server: RemoteServer;

    test.beforeEach(async () => {
      server = await RemoteServer.create(remote.app);
      await server.start();
    });

    test.afterEach(async () => {
      await server.stop();
    });

    test('its area says so and offers Retry, the rest of the shop works, and Retry recovers once it is back', async ({ page }) => {
      await useRemoteServer(page, remote.mfName, server);
      await page.goto(remote.path);
      await expect(areaHeading(page, remote.heading)).toBeVisible();

      await server.stop();
      await page.reload();

      const notice = page.getByRole('alert');
      await expect(notice).toContainText(UNAVAILABLE);
      await expect(notice.getByRole('button', { name: 'Retry' })).toBeVisible();
      await expect(page.getByRole('banner').getByRole('link', { name: 'Boat shop home' })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText('© 2024');

      // Another remote's page, reached through the header, still works.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: remote.elsewhere.link, exact: true }).click();
      await expect(areaHeading(page, remote.elsewhere.heading)).toBeVisible();
      await page.goBack();
      await expect(page.getByRole('alert')).toContainText(UNAVAILABLE);

      await server.start();
      await page.getByRole('button', { name: 'Retry' }).click();

      await expect(areaHeading(page, remote.heading)).toBeVisible();
      await expect(page.getByText(UNAVAILABLE)).toHaveCount(0);
    });
  });
}

// A remote unreachable since the shell's server started: the server has never read its route data,
// so it does not know its pages. A shell server of its own (the stack's knows every remote), with
// mf-catalog released into its registry (so the rest of the shop loads on its origin) and
// mf-cart-checkout at a port where nothing listens yet.
test.describe('a remote unreachable since the shell started', () => {
  const UNREACHABLE = 'This part of the shop cannot be reached right now';
  let registry: string;
  let shell: RegistryShell | undefined;
  let cartCheckout: RemoteServer;

  test.beforeAll(async () => {
    registry = mkdtempSync(join(tmpdir(), 'boatshop-e2e-unreachable-registry-'));
    await releaseStackBuild(registry, 'mf-catalog');
    cartCheckout = await RemoteServer.create('mf-cart-checkout');
    shell = await startRegistryShell(registry, { MF_CART_CHECKOUT_URL: cartCheckout.origin });
  });

  test.afterAll(async () => {
    await cartCheckout?.stop();
    await shell?.stop();
    if (registry) rmSync(registry, { recursive: true, force: true });
  });

  test('its paths answer 503 and say that part cannot be reached, the rest works, and Retry shows the page once it is up', async ({
    page,
  }) => {
    const origin = shell!.origin;
    const response = await page.goto(`${origin}/cart`);
    // Not a 404: search engines keep the page and come back.
    expect(response?.status()).toBe(503);
    expect(response?.headers()['retry-after']).toBe('60');
    await expect(page.getByRole('heading', { level: 1, name: UNREACHABLE })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Boat shop home' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('© 2024');

    // Another remote's page, reached through the header, works.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search', exact: true }).click();
    await expect(areaHeading(page, 'Browse products')).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: UNREACHABLE })).toBeVisible();

    // This shell's origin may load the remote (CORS), as a deployment lists it in SHELL_ORIGIN.
    cartCheckout.allowShellOrigin(origin);
    await cartCheckout.start();
    // The server reads an unreachable remote's route data again every second: Retry until it has.
    await expect(async () => {
      const retry = page.getByRole('button', { name: 'Retry' });
      if (await retry.isVisible()) await retry.click({ timeout: 2_000 });
      await expect(areaHeading(page, 'Checkout')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: UNREACHABLE })).toHaveCount(0);
    expect((await page.goto(`${origin}/cart`))?.status()).toBe(200);
    await expect(areaHeading(page, 'Checkout')).toBeVisible();
  });
});

test.describe('a new release of a remote', () => {
  let distDir: string;
  let server: RemoteServer;

  test.beforeEach(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'boatshop-e2e-catalog-release-'));
    cpSync(join(REPO_ROOT, 'mf-catalog/dist'), distDir, { recursive: true });
    server = await RemoteServer.create('mf-catalog', distDir);
    await server.start();
  });

  test.afterEach(async () => {
    await server.stop();
    rmSync(distDir, { recursive: true, force: true });
  });

  test('reaches the running shell on the next reload, with no rebuild or restart of the shell', async ({ page }) => {
    const label = `e2e-${Date.now()}`;
    await useRemoteServer(page, 'mf_catalog', server);
    await page.goto('/search');
    await expect(areaHeading(page, 'Browse products')).toBeVisible();
    await expect(page.getByText(`Catalog release ${label}`)).toHaveCount(0);

    // Released into the folder the running remote server serves, as a deploy would.
    await buildCatalog(distDir, label);
    await page.reload();

    await expect(page.getByText(`Catalog release ${label}`)).toBeVisible();
    await expect(areaHeading(page, 'Browse products')).toBeVisible();
  });
});

function buildCatalog(outputDir: string, releaseLabel: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const output: string[] = [];
    const build = spawn(join(REPO_ROOT, 'node_modules/.bin/rspack'), ['build', '--output-path', outputDir], {
      cwd: join(REPO_ROOT, 'mf-catalog'),
      env: { ...process.env, NODE_ENV: 'production', RELEASE_LABEL: releaseLabel },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    build.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    build.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the catalog build failed:\n${output.join('')}`))));
  });
}
