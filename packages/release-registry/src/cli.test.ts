import { readFileSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from './cli';
import { RegistryError } from './errors';
import { PREVIEW_SECRET_FILE, verifyPreviewCookie } from './preview';
import { describe } from './registry';
import { readSingletons } from './singletons';
import { readPlaywrightReport, type PlaywrightArgs } from './smoke';
import { publish, removeTemporaryFolders, tempStore } from './test-helpers';

afterAll(removeTemporaryFolders);

const ROOT = resolve(import.meta.dirname, '../../..');

it('the commands promote, list, roll back; malformed input is refused with the registry unchanged', async () => {
  const store = await tempStore();
  const shell = readSingletons(join(ROOT, 'shell'));
  const v1 = await publish(store, 'mf-catalog', '1.0.0', 'one', shell);
  const v2 = await publish(store, 'mf-catalog', '1.1.0', 'two', shell);
  const env = { REMOTES_REGISTRY: store.root };
  const lines: string[] = [];
  const run = (...argv: string[]) => main(argv, env, (line) => lines.push(line));
  const NO_SMOKE = ['--no-smoke', 'unit test: no live shell'];

  await run('promote', 'mf-catalog', '1.0.0', ...NO_SMOKE);
  await run('promote', 'mf-catalog', '1.1.0', '--canary', '10', ...NO_SMOKE);
  await run('releases');
  expect(lines.at(-1)).toMatch(
    new RegExp(`production \\(revision 2\\)[\\s\\S]*live   ${v1.id}[\\s\\S]*canary ${v2.id}  commit abc1234  10%`),
  );

  const before = JSON.stringify(await store.read('production'));
  const refusals: [string[], RegExp][] = [
    [['promote', 'mf-catalog'], /expected <remote> <version>; usage: npm run promote/],
    [['promote', 'mf-catalog', '1.1.0', 'extra'], /expected <remote> <version>/],
    [['promote', 'mf-catalog', '1.1.0', '--canary'], /--canary needs a value/],
    [['promote', 'mf-catalog', '1.1.0', '--canary', '150'], /invalid canary share "150"/],
    [['promote', 'mf-catalog', '1.1.0', '--force'], /unknown option --force/],
    [['promote', 'mf-catalog', '1.1.0'], /smoke journeys in the live shell: give its URL \(--shell-url <url> or SHELL_URL\)/],
    [['promote', 'mf-catalog', '1.1.0', '--no-smoke'], /--no-smoke needs a value/],
    [['promote', 'mf-catalog', '1.1.0', '--no-smoke', ' '], /skipping the smoke run needs a reason/],
    [['promote', 'mf-catalog', '1.1.0', '--shell-url', 'ftp://shop'], /invalid shell URL "ftp:\/\/shop"/],
    [['promote', 'mf-catalog', '1.1.0', '--env', 'Prod!'], /invalid environment "Prod!"/],
    [['promote', 'mf-nope', '1.1.0'], /unknown remote "mf-nope"/],
    [['promote', 'mf-catalog', '7.0.0'], /mf-catalog has no release 7\.0\.0/],
    [['rollback', 'mf-catalog', '--canary=yes'], /--canary takes no value/],
    [['rollback'], /expected <remote>/],
    [['release', 'shell'], /unknown remote "shell"/],
    [['deploy', 'mf-catalog'], /unknown command "deploy"/],
  ];
  for (const [argv, message] of refusals) {
    const error = await run(...argv).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, argv.join(' ')).toBeInstanceOf(RegistryError);
    expect((error as Error).message).toMatch(message);
  }
  expect(JSON.stringify(await store.read('production'))).toBe(before);

  await run('promote', 'mf-catalog', '1.1.0', '--env', 'staging', ...NO_SMOKE);
  await run('rollback', 'mf-catalog', '--canary');
  expect((await store.read('production')).remotes['mf-catalog']!.canary).toBeNull();
  await run('promote', 'mf-catalog', '1.1.0', ...NO_SMOKE);
  await run('rollback', 'mf-catalog');
  expect(lines.at(-1)).toBe(`mf-catalog: ${v2.id} → ${v1.id} in production`);
  expect((await store.read('staging')).remotes['mf-catalog']!.live!.release).toBe(v2.id);
});

it('promote runs the smoke journeys in the live shell with a signed preview; a failed journey refuses, naming it', async () => {
  const store = await tempStore();
  const shell = readSingletons(join(ROOT, 'shell'));
  await publish(store, 'mf-cart-checkout', '1.0.0', 'one', shell);
  const v2 = await publish(store, 'mf-cart-checkout', '1.1.0', 'two', shell);
  const lines: string[] = [];
  const env = { REMOTES_REGISTRY: store.root };
  await main(['promote', 'mf-cart-checkout', '1.0.0', '--no-smoke', 'first release, shell not up yet'], env, (l) => lines.push(l));
  expect(lines.at(-1)).toMatch(/is live for everyone in production \(smoke run skipped: first release, shell not up yet\)/);
  expect(await describe(store, ['production'])).toContain('live promoted WITHOUT a smoke run: first release, shell not up yet');

  // A stand-in for the live shell: /remotes.json names the candidate only for a valid preview cookie.
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const cookie = /boatshop_preview=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] ?? null;
    seen.push(cookie ?? '');
    const preview = verifyPreviewCookie(readFileSync(join(store.root, PREVIEW_SECRET_FILE), 'utf8').trim(), cookie, 'production');
    const release = preview ? preview.release : 'live';
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ mf_cart_checkout: `/releases/mf-cart-checkout/${release}/mf-manifest.json` }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const shellUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const before = JSON.stringify(await store.read('production'));
    const runs: PlaywrightArgs[] = [];
    const failing = async (args: PlaywrightArgs) => {
      runs.push(args);
      return {
        passed: ['cart: the page'],
        failed: [{ journey: 'cart: home → product → add to cart', error: 'Timed out waiting for row' }],
      };
    };
    const error = await main(['promote', 'mf-cart-checkout', '1.1.0', '--canary', '5', '--shell-url', shellUrl], env, () => {}, {
      runPlaywright: failing,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).code).toBe('SMOKE_FAILED');
    expect((error as Error).message).toBe(
      `mf-cart-checkout ${v2.id} failed its smoke run in the live shell (${shellUrl}); nothing changed:\n` +
        '  ✗ cart: home → product → add to cart: Timed out waiting for row\n  passed: cart: the page',
    );
    expect(JSON.stringify(await store.read('production'))).toBe(before);
    expect(runs[0]).toMatchObject({ remote: 'mf-cart-checkout', env: { SMOKE_SHELL_URL: shellUrl, SMOKE_RELEASE: v2.id } });
    expect(runs[0]!.env.SMOKE_PREVIEW_COOKIE).toBe(`boatshop_preview=${seen.at(-1)}`);
    expect((await stat(join(store.root, PREVIEW_SECRET_FILE))).mode & 0o777).toBe(0o600);

    // A shell that does not honour the preview (another registry, another secret) is not a smoke run.
    await writeFile(join(store.root, PREVIEW_SECRET_FILE), 'x'.repeat(64));
    const wrongShell = await main(
      ['promote', 'mf-cart-checkout', '1.1.0', '--shell-url', shellUrl],
      { ...env, REMOTES_PREVIEW_SECRET: 'y'.repeat(40) },
      () => {},
      {
        runPlaywright: failing,
      },
    ).catch((e: unknown) => e);
    expect((wrongShell as Error).message).toMatch(/does not serve the candidate .* share its preview secret/);
    expect(runs).toHaveLength(1);

    await main(['promote', 'mf-cart-checkout', '1.1.0', '--canary', '5', '--shell-url', shellUrl], env, (l) => lines.push(l), {
      runPlaywright: async () => ({ passed: ['cart: the page', 'cart: add and remove'], failed: [] }),
    });
    expect(lines.at(-1)).toBe(
      `mf-cart-checkout ${v2.id}: canary for 5% of visitors in production (smoke run passed: 2 journeys in ${shellUrl})`,
    );
    expect((await store.read('production')).remotes['mf-cart-checkout']!.canary).toMatchObject({
      release: v2.id,
      smoke: { result: 'passed', journeys: 2, shell: shellUrl },
    });
  } finally {
    server.close();
  }
});

it('readPlaywrightReport names each journey by its describe path and title, failures with their first line', () => {
  const outcome = readPlaywrightReport({
    suites: [
      {
        title: 'mf-catalog.smoke.ts',
        specs: [
          { title: 'catalog: home', ok: true, tests: [{ results: [{ status: 'passed' }] }] },
          {
            title: 'catalog: product',
            ok: false,
            tests: [
              {
                results: [{ status: 'failed', error: { message: '\u001b[31mError: expect(locator).toBeVisible()\u001b[39m\n\nCall log' } }],
              },
            ],
          },
        ],
      },
    ],
    errors: [{ message: 'Error: no tests found' }],
  });
  expect(outcome).toEqual({
    passed: ['catalog: home'],
    failed: [
      { journey: 'catalog: product', error: 'Error: expect(locator).toBeVisible()' },
      { journey: 'the smoke run itself', error: 'Error: no tests found' },
    ],
  });
});
