import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe as suite, expect, it } from 'vitest';
import { canaryBucket, canaryVerdict, inCanary, newVisitorSeed } from './canary';
import { RegistryError } from './errors';
import { publishRelease } from './publish';
import { describe, findRelease, manifestForVisitor, promote, rollback, routePaths, withdrawCanary } from './registry';
import { compatibilityProblems } from './singletons';
import { FileRegistryStore } from './file-store';
import { fakeDist, publish, publishedText, removeTemporaryFolders, SHELL, STORE_KINDS, tempStore } from './test-helpers';
import type { RegistryStore } from './types';

afterAll(removeTemporaryFolders);

const env = 'production';

async function refusal(promise: Promise<unknown>): Promise<RegistryError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryError);
  return error as RegistryError;
}

suite.each(STORE_KINDS)('publishing (%s store)', (kind) => {
  it('publishes to releases/<remote>/<version>-<hash>/ and records the release', async () => {
    const store = await tempStore(kind);
    const record = await publish(store, 'mf-catalog', '1.0.0');
    expect(record.id).toMatch(/^1\.0\.0-[0-9a-f]{12}$/);
    expect(record).toMatchObject({ remote: 'mf-catalog', version: '1.0.0', commit: 'abc1234', files: 2, routes: null });
    expect(record.singletons.react).toEqual({ required: '^19.2.0', built: '19.2.1' });
    expect(await publishedText(store, 'mf-catalog', record.id, 'static/main.js')).toBe('mf-catalog@1.0.0');
    expect(await publishedText(store, 'mf-catalog', record.id, 'mf-manifest.json')).toContain('mf_catalog');
    expect(await publishedText(store, 'mf-catalog', record.id, 'static/other.js')).toBeNull();
  });

  it('never overwrites: the same version with other content is refused, the files stay', async () => {
    const store = await tempStore(kind);
    const first = await publish(store, 'mf-catalog', '1.0.0', 'first');
    const error = await refusal(publish(store, 'mf-catalog', '1.0.0', 'second'));
    expect(error.code).toBe('IMMUTABLE');
    expect(error.message).toMatch(/bump the version/);
    expect(await publishedText(store, 'mf-catalog', first.id, 'static/main.js')).toBe('first');
    if (store instanceof FileRegistryStore) expect(await readdir(join(store.releasesDir, 'mf-catalog'))).toEqual([first.id]);
    expect(await store.releases('mf-catalog')).toHaveLength(1);
  });

  it('the same content again is a no-op, and the hash follows the content', async () => {
    const store = await tempStore(kind);
    const a = await publish(store, 'mf-catalog', '1.0.0', 'same');
    const again = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir: await fakeDist('same'),
      version: '1.0.0',
      commit: 'x',
      builtAt: 'now',
      singletons: SHELL,
    });
    expect(again).toMatchObject({ created: false, record: { id: a.id } });
    const b = await publish(store, 'mf-catalog', '1.0.1', 'other');
    expect(b.contentHash).not.toBe(a.contentHash);
  });

  it('records route data when the build has some', async () => {
    const store = await tempStore(kind);
    const routes = { schema: 1, remote: 'mf_catalog', routes: [{ path: '/boats', module: './Boats', access: 'public', layout: 'main' }] };
    const { record } = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir: await fakeDist('x', { 'routes.json': JSON.stringify(routes) }),
      version: '1.0.0',
      commit: null,
      builtAt: new Date().toISOString(),
      singletons: SHELL,
    });
    expect(record.routes).toEqual(routes);
  });

  it('refuses an unknown remote, a non-semver version, a folder without a build', async () => {
    const store = await tempStore(kind);
    expect((await refusal(publish(store, 'mf-nope', '1.0.0'))).code).toBe('UNKNOWN_REMOTE');
    expect((await refusal(publish(store, 'mf-catalog', 'latest'))).code).toBe('INVALID_INPUT');
    const empty = await refusal(
      publishRelease(store, { remote: 'mf-catalog', distDir: '/nonexistent', version: '1.0.0', commit: null, builtAt: '', singletons: {} }),
    );
    expect(empty.message).toMatch(/build mf-catalog first/);
    expect(await store.releases('mf-catalog')).toEqual([]);
    if (store instanceof FileRegistryStore) expect(existsSync(store.releasesDir)).toBe(false);
  });
});

suite.each(STORE_KINDS)('promotion and rollback (%s store)', (kind) => {
  it('promotes, keeps history, rolls back to the previous live release at once', async () => {
    const store = await tempStore(kind);
    const v1 = await publish(store, 'mf-catalog', '1.0.0');
    const v2 = await publish(store, 'mf-catalog', '1.1.0');
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    const { state } = await promote(store, { environment: env, remote: 'mf-catalog', version: v2.id, shellSingletons: SHELL });
    expect(state.remotes['mf-catalog']).toMatchObject({ live: { release: v2.id }, history: [{ release: v1.id }], canary: null });
    expect(manifestForVisitor(state, { baseUrl: '/releases' })).toEqual({ mf_catalog: `/releases/mf-catalog/${v2.id}/mf-manifest.json` });

    const back = await rollback(store, { environment: env, remote: 'mf-catalog' });
    expect(back.state.remotes['mf-catalog']).toMatchObject({ live: { release: v1.id }, history: [] });
    expect(back.message).toContain(`${v2.id} → ${v1.id}`);
    expect((await refusal(rollback(store, { environment: env, remote: 'mf-catalog' }))).code).toBe('NOTHING_TO_ROLL_BACK');
  });

  it('environments are independent', async () => {
    const store = await tempStore(kind);
    await publish(store, 'mf-catalog', '1.0.0');
    await promote(store, { environment: 'staging', remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    expect((await store.read('production')).remotes).toEqual({});
    expect(await store.environments()).toEqual(['staging']);
  });

  it('a canary runs beside the live release; promoting it ends the canary; rollback withdraws it', async () => {
    const store = await tempStore(kind);
    const v1 = await publish(store, 'mf-catalog', '1.0.0');
    const v2 = await publish(store, 'mf-catalog', '1.1.0');
    expect(
      (await refusal(promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', canary: 10, shellSingletons: SHELL })))
        .message,
    ).toMatch(/no live release/);
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    const canary = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', canary: '10', shellSingletons: SHELL });
    expect(canary.state.remotes['mf-catalog']).toMatchObject({ live: { release: v1.id }, canary: { release: v2.id, share: 10 } });

    const withdrawn = await rollback(store, { environment: env, remote: 'mf-catalog', canaryOnly: true });
    expect(withdrawn.state.remotes['mf-catalog']).toMatchObject({ live: { release: v1.id }, canary: null });

    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', canary: 25, shellSingletons: SHELL });
    const everyone = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', shellSingletons: SHELL });
    expect(everyone.state.remotes['mf-catalog']).toMatchObject({ live: { release: v2.id }, canary: null });

    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', canary: 5, shellSingletons: SHELL });
    const rolled = await rollback(store, { environment: env, remote: 'mf-catalog' });
    expect(rolled.state.remotes['mf-catalog']).toMatchObject({ live: { release: v1.id }, canary: null });
  });

  it('promoting what is already live changes nothing', async () => {
    const store = await tempStore(kind);
    await publish(store, 'mf-catalog', '1.0.0');
    const first = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    const again = await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    expect(again.state.revision).toBe(first.state.revision);
    expect(again.message).toMatch(/already live/);
  });

  it('refuses unknown remotes, unknown versions, malformed input, leaving the registry unchanged', async () => {
    const store = await tempStore(kind);
    await publish(store, 'mf-catalog', '1.0.0');
    await publish(store, 'mf-catalog', '1.1.0');
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    const before = await store.read(env);
    const base = { environment: env, remote: 'mf-catalog', version: '1.1.0', shellSingletons: SHELL };
    const cases: [() => Promise<unknown>, string, RegExp][] = [
      [
        () => promote(store, { ...base, remote: 'mf-unknown' }),
        'UNKNOWN_REMOTE',
        /unknown remote "mf-unknown": expected one of mf-catalog/,
      ],
      [() => promote(store, { ...base, remote: '__proto__' }), 'UNKNOWN_REMOTE', /unknown remote/],
      [
        () => promote(store, { ...base, version: '9.9.9' }),
        'UNKNOWN_RELEASE',
        /mf-catalog has no release 9\.9\.9 \(latest: 1\.0\.0, 1\.1\.0\)/,
      ],
      [() => promote(store, { ...base, version: '../../etc' }), 'INVALID_INPUT', /invalid version/],
      [() => promote(store, { ...base, version: '' }), 'INVALID_INPUT', /invalid version/],
      [() => promote(store, { ...base, canary: 'ten' }), 'INVALID_INPUT', /invalid canary share/],
      [() => promote(store, { ...base, canary: 0 }), 'INVALID_INPUT', /invalid canary share/],
      [() => promote(store, { ...base, canary: 100 }), 'INVALID_INPUT', /invalid canary share/],
      [() => promote(store, { ...base, canary: -5 }), 'INVALID_INPUT', /invalid canary share/],
      [() => promote(store, { ...base, version: '1.0.0', canary: 10 }), 'INVALID_INPUT', /already live/],
      [() => promote(store, { ...base, environment: '../prod' }), 'INVALID_INPUT', /invalid environment/],
      [() => rollback(store, { environment: env, remote: 'mf-account' }), 'NOTHING_TO_ROLL_BACK', /no previous live release/],
      [() => rollback(store, { environment: env, remote: 'mf-catalog', canaryOnly: true }), 'NOTHING_TO_ROLL_BACK', /no canary/],
    ];
    for (const [promise, code, message] of cases) {
      const error = await refusal(promise());
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    }
    expect(await store.read(env)).toEqual(before);
  });

  it('refuses a release whose shared singletons do not fit the shell, naming each failed check', async () => {
    const store = await tempStore(kind);
    await publish(store, 'mf-catalog', '1.0.0');
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    const before = await store.read(env);
    await publish(store, 'mf-catalog', '2.0.0', 'react 20', { ...SHELL, react: { required: '^20.0.0', built: '20.0.0' } });
    const error = await refusal(
      promote(store, { environment: env, remote: 'mf-catalog', version: '2.0.0', canary: 10, shellSingletons: SHELL }),
    );
    expect(error.code).toBe('INCOMPATIBLE');
    expect(error.message).toContain('react: the shell provides 19.2.1, mf-catalog 2.0.0 requires ^20.0.0');
    expect(error.message).toContain('react: mf-catalog 2.0.0 was built against 20.0.0, the shell accepts ^19.2.0');
    expect(await store.read(env)).toEqual(before);
  });

  it('compatibility: same major lines pass, an older shell copy or an unshared singleton fail', () => {
    expect(compatibilityProblems(SHELL, SHELL)).toEqual([]);
    const older = compatibilityProblems({ nanostores: { required: '^1.6.0', built: '1.6.0' } }, SHELL);
    expect(older.map((p) => p.message)).toEqual(['nanostores: the shell provides 1.5.5, the release requires ^1.6.0']);
    const unshared = compatibilityProblems({ 'react-router': { required: '^7.0.0', built: '7.18.6' } }, SHELL);
    expect(unshared[0]!.message).toMatch(/the shell does not share it/);
  });

  it('findRelease accepts the version or the full release id', async () => {
    const store = await tempStore(kind);
    const record = await publish(store, 'mf-admin', '0.3.0');
    expect((await findRelease(store, 'mf-admin', '0.3.0')).id).toBe(record.id);
    expect((await findRelease(store, 'mf-admin', record.id)).id).toBe(record.id);
  });

  it('describe lists live, canary and rollback target with ages', async () => {
    const store = await tempStore(kind);
    const v1 = await publish(store, 'mf-catalog', '1.0.0');
    const v2 = await publish(store, 'mf-catalog', '1.1.0');
    const then = new Date('2026-01-01T00:00:00Z');
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL, now: then });
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', canary: 10, shellSingletons: SHELL, now: then });
    const text = await describe(store, undefined, new Date('2026-01-03T05:00:00Z'));
    expect(text).toContain(`live   ${v1.id}  commit abc1234  for 2 d`);
    expect(text).toContain(`canary ${v2.id}  commit abc1234  10% for 2 d`);
    expect(text).toMatch(/mf-admin\s+not released here/);
  });
});

suite('canary assignment', () => {
  const canary = { release: '1.1.0-0123456789ab', share: 10 };

  it('is sticky: a visitor gets the same answer on every request', () => {
    for (let i = 0; i < 200; i += 1) {
      const seed = newVisitorSeed();
      const first = inCanary(seed, 'mf-catalog', canary);
      for (let j = 0; j < 5; j += 1) expect(inCanary(seed, 'mf-catalog', canary)).toBe(first);
    }
  });

  it('reaches about its share of visitors', () => {
    for (const share of [1, 10, 50]) {
      const n = 20_000;
      let hits = 0;
      for (let i = 0; i < n; i += 1) if (inCanary(newVisitorSeed(), 'mf-catalog', { ...canary, share })) hits += 1;
      // Binomial: 5 standard deviations either side.
      const sd = Math.sqrt(n * (share / 100) * (1 - share / 100));
      expect(Math.abs(hits - (n * share) / 100)).toBeLessThan(5 * sd);
    }
  });

  it('raising the share keeps everyone already in the canary', () => {
    for (let i = 0; i < 2000; i += 1) {
      const seed = newVisitorSeed();
      if (inCanary(seed, 'mf-catalog', { ...canary, share: 10 })) expect(inCanary(seed, 'mf-catalog', { ...canary, share: 30 })).toBe(true);
    }
  });

  it('no seed, no canary; the bucket lies in [0, 100)', () => {
    expect(inCanary(null, 'mf-catalog', { ...canary, share: 99.99 })).toBe(false);
    const bucket = canaryBucket('seed-1234', 'mf-catalog', canary.release);
    expect(bucket).toBeGreaterThanOrEqual(0);
    expect(bucket).toBeLessThan(100);
  });

  it('manifestForVisitor gives canary visitors the canary release and the rest the live one', () => {
    const state = {
      schema: 1 as const,
      environment: env,
      revision: 3,
      updatedAt: null,
      remotes: {
        'mf-catalog': {
          live: { release: '1.0.0-aaaaaaaaaaaa', since: '2026-01-01T00:00:00Z' },
          canary: { ...canary, share: 50, since: '2026-01-01T00:00:00Z' },
          history: [],
        },
      },
    };
    const seen = new Set<string>();
    for (let i = 0; i < 100; i += 1) {
      const seed = newVisitorSeed();
      const url = manifestForVisitor(state, { baseUrl: 'https://cdn.example/releases/', seed }).mf_catalog!;
      seen.add(url);
      expect(url).toBe(
        `https://cdn.example/releases/mf-catalog/${inCanary(seed, 'mf-catalog', state.remotes['mf-catalog'].canary) ? canary.release : '1.0.0-aaaaaaaaaaaa'}/mf-manifest.json`,
      );
    }
    expect(seen.size).toBe(2);
  });
});

suite('canary safety', () => {
  it('a verdict needs enough evidence and a rate clearly above the live one', () => {
    expect(canaryVerdict({ served: 100, failures: 4 }, { served: 1000, failures: 0 })).toBeNull();
    expect(canaryVerdict({ served: 10, failures: 10 }, { served: 1000, failures: 0 })).toBeNull();
    // A shop-wide outage: both sides fail alike.
    expect(canaryVerdict({ served: 100, failures: 40 }, { served: 1000, failures: 380 })).toBeNull();
    expect(canaryVerdict({ served: 100, failures: 4 + 1 }, { served: 1000, failures: 40 })).toBeNull();
    expect(canaryVerdict({ served: 40, failures: 30 }, { served: 1000, failures: 5 })).toBe(
      'failure rate 75.0% (30 of 40 loads) against 0.5% (5 of 1000) for the live release',
    );
  });

  it.each(STORE_KINDS)('withdrawCanary takes out only the judged release and records why (%s store)', async (kind) => {
    const store = await tempStore(kind);
    const v1 = await publish(store, 'mf-catalog', '1.0.0');
    const v2 = await publish(store, 'mf-catalog', '1.1.0');
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', canary: 10, shellSingletons: SHELL });
    expect(await withdrawCanary(store, { environment: env, remote: 'mf-catalog', release: v1.id, reason: 'x' })).toBeNull();
    const state = await withdrawCanary(store, { environment: env, remote: 'mf-catalog', release: v2.id, reason: 'failure rate 75.0%' });
    expect(state!.remotes['mf-catalog']).toMatchObject({
      live: { release: v1.id },
      canary: null,
      withdrawn: { release: v2.id, reason: 'failure rate 75.0%' },
    });
    expect(await describe(store)).toMatch(new RegExp(`canary ${v2.id} withdrawn automatically \\d+ s ago: failure rate 75.0%`));
  });
});

suite.each(STORE_KINDS)('route collisions (%s store)', (kind) => {
  async function withRoutes(store: RegistryStore, remote: string, version: string, paths: string[]) {
    const { record } = await publishRelease(store, {
      remote,
      distDir: await fakeDist(`${remote}${version}`, {
        'routes.json': JSON.stringify({
          schema: 1,
          remote: remote.replace('-', '_').replace('-', '_'),
          routes: paths.map((path) => ({ path, module: './X', access: 'public', layout: 'main' })),
        }),
      }),
      version,
      commit: null,
      builtAt: new Date().toISOString(),
      singletons: SHELL,
    });
    return record;
  }

  it('refuses a release claiming a path a live or canary release of another remote serves', async () => {
    const store = await tempStore(kind);
    await withRoutes(store, 'mf-catalog', '1.0.0', ['/', '/product/:id']);
    await withRoutes(store, 'mf-account', '1.0.0', ['/login']);
    const clash = await withRoutes(store, 'mf-account', '1.1.0', ['/login', '/Product/:productId']);
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    await promote(store, { environment: env, remote: 'mf-account', version: '1.0.0', shellSingletons: SHELL });
    const before = await store.read(env);
    const error = await refusal(
      promote(store, { environment: env, remote: 'mf-account', version: '1.1.0', canary: 10, shellSingletons: SHELL }),
    );
    expect(error.code).toBe('ROUTE_COLLISION');
    expect(error.message).toContain(`mf-account ${clash.id} claims paths other remotes serve in production`);
    expect(error.message).toMatch(/\/product\/: \(mf-catalog 1\.0\.0-[0-9a-f]{12}\)/);
    expect(await store.read(env)).toEqual(before);
    // Its own earlier paths are no collision.
    await withRoutes(store, 'mf-account', '1.2.0', ['/login', '/dashboard']);
    await promote(store, { environment: env, remote: 'mf-account', version: '1.2.0', shellSingletons: SHELL });
  });

  it('routePaths normalizes case, slashes and parameter names, and ignores what is not route data', () => {
    expect(routePaths([{ path: '/Admin/Orders/' }, { path: 'order/:orderID' }, { path: '/' }, { nope: 1 }, 'x'])).toEqual([
      '/admin/orders',
      '/order/:',
      '/',
    ]);
    expect(routePaths(null)).toEqual([]);
  });
});
