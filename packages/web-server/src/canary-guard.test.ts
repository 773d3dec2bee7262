import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore, promote, publishRelease, rollback, tallyOf, type Singletons } from '@boatshop/release-registry';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebServer } from './server';
import { remotesEnv, serveRouteData } from './test/stand-in-remotes';

// The canary guard: nobody outside the shop can force a healthy canary out, or keep a broken one
// in. The shell's server issues the canary cookie itself (signed), counts a visitor once per release,
// takes a failure report only from a visitor it served that release to, a few visitors per client
// address, and reads the client address behind its proxy as the API does (TRUST_PROXY).

const SINGLETONS: Singletons = { react: { required: '^19.2.0', built: '19.2.1' } };
const SECRET = 'c'.repeat(40);
const dirs: string[] = [];
const started: FastifyInstance[] = [];
let distDir: string;
let standIn: FastifyInstance;
let standInUrl: string;

beforeAll(async () => {
  standIn = Fastify();
  serveRouteData(standIn);
  standInUrl = await standIn.listen({ port: 0, host: '127.0.0.1' });
  distDir = await temp('canary-shell-');
  await writeFile(
    join(distDir, 'index.html'),
    '<!doctype html><html><head><title>Boat shop</title></head><body><div id="root"></div></body></html>',
  );
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()));
});
afterAll(async () => {
  await standIn.close();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A registry with mf-catalog 1.0.0 live and `versions` published beside it. */
async function registry(versions: string[] = ['1.1.0']) {
  const store = new FileRegistryStore(await temp('canary-registry-'));
  const ids: string[] = [];
  for (const version of ['1.0.0', ...versions]) {
    const dist = await temp('canary-dist-');
    await writeFile(
      join(dist, 'mf-manifest.json'),
      JSON.stringify({ id: 'mf_catalog', version, metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' } }),
    );
    await writeFile(
      join(dist, 'routes.json'),
      JSON.stringify({
        schema: 1,
        remote: 'mf_catalog',
        routes: [{ path: '/search', module: './Search', access: 'public', layout: 'main' }],
      }),
    );
    const { record } = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir: dist,
      version,
      commit: 'c0ffee',
      builtAt: new Date().toISOString(),
      singletons: SINGLETONS,
    });
    ids.push(record.id);
  }
  await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.0.0', shellSingletons: SINGLETONS });
  return { store, ids };
}

async function shell(store: FileRegistryStore, extra: Record<string, string> = {}) {
  const app = await createWebServer({
    role: 'shell',
    distDir,
    apiUrl: 'http://127.0.0.1:1',
    env: {
      REMOTES_REGISTRY: store.root,
      REMOTES_REGISTRY_TTL_MS: '0',
      REMOTES_COUNTS_FLUSH_MS: '0',
      CANARY_COOKIE_SECRET: SECRET,
      ...remotesEnv(standInUrl),
      ...extra,
    },
  });
  started.push(app);
  return app;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
/** How long a check waits for what the shell writes in the background (counts, a withdrawal) on a busy CI machine. */
const BACKGROUND_MS = 10_000;
const cookieOf = (response: { headers: Record<string, unknown> }) => String(response.headers['set-cookie'] ?? '').split(';')[0]!;
const catalogueOf = (html: string) =>
  (
    JSON.parse(/<script type="application\/json" id="boatshop-page-data">(.*?)<\/script>/s.exec(html)![1]!) as {
      remotes: Record<string, string>;
    }
  ).remotes.mf_catalog!;

/** A visitor's first page load: the cookie the server gave them and whether they got `canaryId`. */
async function visit(app: FastifyInstance, canaryId: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ url: '/search', headers: { accept: 'text/html', ...headers } });
  return { cookie: cookieOf(response), inCanary: catalogueOf(response.body).includes(canaryId) };
}

function report(app: FastifyInstance, cookie: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/remote-failures',
    remoteAddress,
    headers: { cookie, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ remote: 'mf_catalog' }),
  });
}

const canaryOf = async (store: FileRegistryStore) => (await store.read('production')).remotes['mf-catalog']!.canary;

describe('canary guard', () => {
  it('issues its own signed cookie: an invented seed is replaced, and its reports count for nothing', async () => {
    const { store, ids } = await registry();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 50, shellSingletons: SINGLETONS });
    const app = await shell(store);
    // Twenty page loads and five reports under five seeds of the caller's choosing, each from an address of its own.
    for (let i = 0; i < 20; i += 1) {
      const page = await app.inject({ url: '/search', headers: { accept: 'text/html', cookie: `boatshop_canary=invented-seed-${i % 5}` } });
      expect(cookieOf(page)).not.toBe(`boatshop_canary=invented-seed-${i % 5}`);
    }
    for (let i = 0; i < 5; i += 1) expect((await report(app, `boatshop_canary=invented-seed-${i}`, `10.3.0.${i}`)).statusCode).toBe(204);
    await settle();
    expect(await canaryOf(store)).not.toBeNull();
    expect(tallyOf(await store.readCounts('production'), 'mf-catalog', ids[1]!).failures).toBe(0);
  });

  it('counts a visitor once per release, however often they reload', async () => {
    const { store, ids } = await registry();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 50, shellSingletons: SINGLETONS });
    const app = await shell(store);
    const { cookie, inCanary } = await visit(app, ids[1]!);
    for (let i = 0; i < 19; i += 1) {
      const again = await app.inject({ url: '/search', headers: { accept: 'text/html', cookie } });
      expect(again.headers['set-cookie']).toBeUndefined();
    }
    await settle();
    const counts = await store.readCounts('production');
    expect(tallyOf(counts, 'mf-catalog', ids[inCanary ? 1 : 0]!).served).toBe(1);
    expect(tallyOf(counts, 'mf-catalog', ids[inCanary ? 0 : 1]!).served).toBe(0);
  });

  it('takes a report only from a visitor it served that release to', async () => {
    const { store, ids } = await registry(['1.1.0', '1.2.0']);
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 99, shellSingletons: SINGLETONS });
    const app = await shell(store);
    const visitors = [];
    for (let i = 0; i < 25; i += 1) visitors.push(await visit(app, ids[1]!));
    // A second canary replaces the first: the earlier visitors were never served 1.2.0 and cannot vote it out.
    await rollback(store, { environment: 'production', remote: 'mf-catalog', canaryOnly: true });
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.2.0', canary: 99, shellSingletons: SINGLETONS });
    for (const [i, v] of visitors.entries()) expect((await report(app, v.cookie, `10.4.0.${i}`)).statusCode).toBe(204);
    await settle();
    expect((await canaryOf(store))?.release).toBe(ids[2]);
    expect(tallyOf(await store.readCounts('production'), 'mf-catalog', ids[2]!).failures).toBe(0);
  });

  it('withdraws only on enough distinct visitors: many visitors minted from one address are two voices', async () => {
    const { store, ids } = await registry();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 99, shellSingletons: SINGLETONS });
    const app = await shell(store);
    const visitors = [];
    for (let i = 0; i < 30; i += 1) visitors.push(await visit(app, ids[1]!));
    for (const v of visitors.slice(0, 10)) expect((await report(app, v.cookie, '10.5.0.1')).statusCode).toBe(204);
    // The counts are written in the background: wait for them, not for a fixed time.
    await expect
      .poll(async () => tallyOf(await store.readCounts('production'), 'mf-catalog', ids[1]!).failures, { timeout: BACKGROUND_MS })
      .toBe(2);
    await settle();
    expect(await canaryOf(store)).not.toBeNull();

    // Real visitors, each from their own address: five are enough evidence.
    for (const [i, v] of visitors.slice(10, 13).entries()) expect((await report(app, v.cookie, `10.5.1.${i}`)).statusCode).toBe(204);
    await expect.poll(() => canaryOf(store), { timeout: BACKGROUND_MS }).toBeNull();
    expect((await store.read('production')).remotes['mf-catalog']!.withdrawn).toMatchObject({ release: ids[1] });
  });

  it("behind the proxy, reads the visitor's address from X-Forwarded-For: one address flooding reports does not silence the others", async () => {
    const { store, ids } = await registry();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 99, shellSingletons: SINGLETONS });
    const app = await shell(store, { TRUST_PROXY: '127.0.0.1' });
    const { cookie } = await visit(app, ids[1]!, { 'x-forwarded-for': '203.0.113.9' });
    const flood = [];
    for (let i = 0; i < 25; i += 1)
      flood.push((await report(app, 'boatshop_canary=x', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })).statusCode);
    expect(flood).toContain(429);
    expect((await report(app, cookie, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(204);
    await settle();
    expect(tallyOf(await store.readCounts('production'), 'mf-catalog', ids[1]!).failures).toBe(1);

    // A connection from anywhere else is not a proxy: its X-Forwarded-For is ignored.
    const direct = await shell(store, { TRUST_PROXY: '127.0.0.1' });
    for (let i = 0; i < 25; i += 1) await report(direct, 'boatshop_canary=x', '192.0.2.1', { 'x-forwarded-for': `198.51.100.${i}` });
    expect((await report(direct, 'boatshop_canary=x', '192.0.2.1', { 'x-forwarded-for': '198.51.100.200' })).statusCode).toBe(429);
  });

  it('refuses a canary cookie secret too short to sign with', async () => {
    const { store } = await registry();
    await expect(shell(store, { CANARY_COOKIE_SECRET: 'short' })).rejects.toThrow(/CANARY_COOKIE_SECRET/);
  });
});
