import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore, PREVIEW_COOKIE, previewCookieValue, publishRelease, promote, rollback } from '@boatshop/release-registry';
import { describe, expect, it } from 'vitest';
import { createWebServer } from './server';
import { SHOP_ROUTES } from './test/shop-routes';

import {
  SINGLETONS,
  started,
  mkdtemp,
  distDir,
  standInUrl,
  storeWithReleases,
  shell,
  catalogRoutes,
  catalogOf,
  pageData,
} from './test/registry-stand-in';

describe('shell with a release registry', () => {
  it('/remotes.json names the live release; remotes never released keep their default URL', async () => {
    const { store, ids } = await storeWithReleases();
    const app = await shell(store);
    const response = await app.inject({ url: '/remotes.json' });
    expect(response.json()).toMatchObject({
      remotes: {
        mf_catalog: `/releases/mf-catalog/${ids[0]}/mf-manifest.json`,
        mf_account: `${standInUrl}/mf-account/mf-manifest.json`,
      },
      // The live release's recorded route data; mf_account's own, read beside its manifest.
      routes: { mf_catalog: catalogRoutes('1.0.0'), mf_account: SHOP_ROUTES.mf_account },
      unavailable: [],
    });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-cache');

    // A remote never released and unreachable at its default location: named, no pages made up for it.
    const without = await shell(store, { MF_ACCOUNT_URL: 'http://127.0.0.1:1' });
    const body = (await without.inject({ url: '/remotes.json' })).json() as { routes: Record<string, unknown>; unavailable: string[] };
    expect(body.unavailable).toEqual(['mf_account']);
    expect(body.routes.mf_account).toBeUndefined();
    expect(body.routes.mf_catalog).toEqual(catalogRoutes('1.0.0'));
    const login = await without.inject({ url: '/login', headers: { accept: 'text/html' } });
    expect(login.statusCode).toBe(503);
    expect(login.headers['retry-after']).toBe('60');
  });

  it('follows a promotion and a rollback on the next request, pages included', async () => {
    const { store, ids } = await storeWithReleases();
    const app = await shell(store);
    // The page 1.1.0 adds is unknown while 1.0.0 is live, and a page of the shop once 1.1.0 is.
    expect((await app.inject({ url: '/regattas', headers: { accept: 'text/html' } })).statusCode).toBe(404);
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', shellSingletons: SINGLETONS });
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[1]);
    const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(pageData(page.body).remotes.mf_catalog).toContain(ids[1]);
    expect(pageData(page.body).routes.mf_catalog).toEqual(catalogRoutes('1.1.0'));
    const regattas = await app.inject({ url: '/regattas', headers: { accept: 'text/html' } });
    expect(regattas.statusCode).toBe(200);
    expect(regattas.body).toContain('<meta name="robots" content="noindex, nofollow">');
    // The release's manifest, read from the registry's disk, is inlined and its entry preloaded.
    expect(page.body).toContain(`<link rel="preload" as="script" href="/releases/mf-catalog/${ids[1]}/remoteEntry.js">`);
    expect(page.body).toContain('"version":"1.1.0"');

    await rollback(store, { environment: 'production', remote: 'mf-catalog' });
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[0]);
    expect((await app.inject({ url: '/regattas', headers: { accept: 'text/html' } })).statusCode).toBe(404);
  });

  it("accepts a release's recorded routes beside the other remotes' before the browser gets them: a contested path stays with the first", async () => {
    // mf_account at its default location (the stand-in) declares /login; a catalogue release claims it too.
    const store = new FileRegistryStore(await mkdtemp(join(tmpdir(), 'registry-')));
    const dist = await mkdtemp(join(tmpdir(), 'registry-dist-'));
    await writeFile(
      join(dist, 'mf-manifest.json'),
      JSON.stringify({ id: 'mf_catalog', metaData: { remoteEntry: { name: 'remoteEntry.js' } } }),
    );
    const claiming = [...catalogRoutes('1.0.0'), { path: '/login', module: './Home', access: 'public', layout: 'main' }];
    await writeFile(join(dist, 'routes.json'), JSON.stringify({ schema: 1, remote: 'mf_catalog', routes: claiming }));
    await publishRelease(store, {
      remote: 'mf-catalog',
      distDir: dist,
      version: '2.0.0',
      commit: null,
      builtAt: new Date().toISOString(),
      singletons: SINGLETONS,
    });
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '2.0.0', shellSingletons: SINGLETONS });
    const app = await shell(store);

    const { routes } = (await app.inject({ url: '/remotes.json' })).json() as { routes: Record<string, { path: string }[]> };
    expect(routes.mf_catalog).toEqual(claiming);
    expect(routes.mf_account!.map(({ path }) => path)).not.toContain('/login');
    expect(routes.mf_account!.map(({ path }) => path)).toContain('/registration');
    const page = await app.inject({ url: '/login', headers: { accept: 'text/html' } });
    expect(pageData(page.body).routes).toEqual(routes);
  });

  it('reads the environment named by REMOTES_ENV', async () => {
    const { store, ids } = await storeWithReleases();
    await promote(store, { environment: 'staging', remote: 'mf-catalog', version: '1.1.0', shellSingletons: SINGLETONS });
    const app = await shell(store, { REMOTES_ENV: 'staging' });
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[1]);
  });

  it('a canary: the cookie keeps each visitor on one side, and about the share of visitors get it', async () => {
    const { store, ids } = await storeWithReleases();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 30, shellSingletons: SINGLETONS });
    const app = await shell(store);

    let canaryVisitors = 0;
    const visitors = 300;
    for (let i = 0; i < visitors; i += 1) {
      const first = await app.inject({ url: '/remotes.json' });
      const setCookie = String(first.headers['set-cookie']);
      expect(setCookie).toMatch(/^boatshop_canary=[A-Za-z0-9_-]+; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
      expect(first.headers.vary).toMatch(/Cookie/i);
      const cookie = setCookie.split(';')[0]!;
      const url = catalogOf(first.body);
      if (url!.includes(ids[1])) canaryVisitors += 1;
      if (i < 20) {
        // Reloads and the page's data block keep the same release, and set no new cookie.
        for (let j = 0; j < 3; j += 1) {
          const again = await app.inject({ url: '/remotes.json', headers: { cookie: `other=1; ${cookie}` } });
          expect(catalogOf(again.body)).toBe(url);
          expect(again.headers['set-cookie']).toBeUndefined();
        }
        const page = await app.inject({ url: '/', headers: { accept: 'text/html', cookie } });
        expect(pageData(page.body).remotes.mf_catalog).toBe(url);
      }
    }
    // 30% of 300: 90 ± 5 standard deviations (about 8).
    expect(canaryVisitors).toBeGreaterThan(50);
    expect(canaryVisitors).toBeLessThan(130);
  });

  it("the operator's signed preview cookie gets the candidate, for that browser only and uncounted; a forged one is ignored", async () => {
    const { store, ids } = await storeWithReleases();
    const app = await shell(store, { REMOTES_PREVIEW_SECRET: 'p'.repeat(40), REMOTES_COUNTS_FLUSH_MS: '0' });
    const candidate = previewCookieValue('p'.repeat(40), { environment: 'production', remote: 'mf-catalog', release: ids[1] });
    const asOperator = { cookie: `${PREVIEW_COOKIE}=${candidate}` };
    const preview = await app.inject({ url: '/remotes.json', headers: asOperator });
    expect(catalogOf(preview.body)).toBe(`/releases/mf-catalog/${ids[1]}/mf-manifest.json`);
    expect(preview.headers.vary).toMatch(/Cookie/);
    const page = await app.inject({ url: '/search', headers: { ...asOperator, accept: 'text/html' } });
    expect(pageData(page.body).remotes.mf_catalog).toContain(ids[1]);

    const forged = previewCookieValue('q'.repeat(40), { environment: 'production', remote: 'mf-catalog', release: ids[1] });
    const staging = previewCookieValue('p'.repeat(40), { environment: 'staging', remote: 'mf-catalog', release: ids[1] });
    for (const cookie of [forged, staging, `mf-catalog~${ids[1]}~production~99999999999999~x`]) {
      expect(catalogOf((await app.inject({ url: '/remotes.json', headers: { cookie: `${PREVIEW_COOKIE}=${cookie}` } })).body)).toContain(
        ids[0],
      );
    }
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[0]);
    // The operator's page load above was not counted; a shopper's is.
    await app.inject({ url: '/search', headers: { accept: 'text/html' } });
    // Written in the background (REMOTES_COUNTS_FLUSH_MS=0): wait for it rather than for a fixed time.
    await expect.poll(() => store.readCounts('production')).toEqual({ 'mf-catalog': { [ids[0]]: { served: 1, failures: 0 } } });

    // Without a secret (none set, no file in the registry) there is no preview at all.
    const plain = await shell(store);
    expect(catalogOf((await plain.inject({ url: '/remotes.json', headers: asOperator })).body)).toContain(ids[0]);
  });

  it('a malformed cookie is replaced, never trusted', async () => {
    const { store } = await storeWithReleases();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 50, shellSingletons: SINGLETONS });
    const app = await shell(store);
    const response = await app.inject({ url: '/remotes.json', headers: { cookie: 'boatshop_canary=<script>' } });
    expect(String(response.headers['set-cookie'])).toMatch(/^boatshop_canary=[A-Za-z0-9_-]{16}/);
  });

  it('serves the published files with immutable caching and the page policy; nothing outside a release', async () => {
    const { store, ids } = await storeWithReleases();
    const app = await shell(store);
    const manifest = await app.inject({ url: `/releases/mf-catalog/${ids[0]}/mf-manifest.json` });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.json()).toMatchObject({ version: '1.0.0' });
    expect(manifest.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(manifest.headers['content-security-policy']).toContain("script-src 'self'");
    expect(manifest.headers['x-content-type-options']).toBe('nosniff');

    await mkdir(join(store.releasesDir, 'mf-catalog', '.incoming-x'), { recursive: true });
    await writeFile(join(store.releasesDir, 'mf-catalog', '.incoming-x', 'a.js'), 'half');
    for (const url of [
      `/releases/mf-catalog/${ids[0]}/missing.js`,
      '/releases/mf-catalog/.incoming-x/a.js',
      `/releases/../records/mf-catalog/${ids[0]}.json`,
      '/releases/%2e%2e/environments/production.json',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain('c0ffee');
      expect(response.body).not.toContain('half');
    }
  });

  it('a broken registry file after a good read keeps the last good state', async () => {
    const { store, ids } = await storeWithReleases();
    const app = await shell(store);
    expect(catalogOf((await app.inject({ url: '/remotes.json' })).body)).toContain(ids[0]);
    await writeFile(join(store.root, 'environments', 'production.json'), '{ half');
    const response = await app.inject({ url: '/remotes.json' });
    expect(response.statusCode).toBe(200);
    expect(catalogOf(response.body)).toContain(ids[0]);
  });

  it('without REMOTES_REGISTRY there is no /releases route', async () => {
    const app = await createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: {} });
    started.push(app);
    expect((await app.inject({ url: '/releases/mf-catalog/x/mf-manifest.json' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/remotes.json' })).json().remotes.mf_catalog).toMatch(/^http:\/\/localhost:\d+\/mf-manifest\.json$/);
  });
});

it('an empty registry folder (nothing released yet) serves every remote from its default URL', async () => {
  const root = await mkdtemp(join(tmpdir(), 'registry-empty-'));
  const app = await shell(new FileRegistryStore(root));
  const response = await app.inject({ url: '/remotes.json' });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toMatchObject({
    remotes: { mf_account: `${standInUrl}/mf-account/mf-manifest.json` },
    routes: SHOP_ROUTES,
    unavailable: [],
  });
  expect((await app.inject({ url: '/releases/mf-catalog/1.0.0-aaaaaaaaaaaa/mf-manifest.json' })).statusCode).toBe(404);
});
