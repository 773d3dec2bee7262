import { promote, tallyOf } from '@boatshop/release-registry';
import { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createWebServer } from './server';

import { SINGLETONS, started, distDir, storeWithReleases, shell, catalogOf, pageData } from './test/registry-stand-in';

describe('canary failure reports', () => {
  /** A visitor: their cookie, and whether they are in the canary (ids[1]). */
  async function visitor(app: FastifyInstance, canaryId: string) {
    const response = await app.inject({ url: '/search', headers: { accept: 'text/html' } });
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    return { cookie, inCanary: pageData(response.body).remotes.mf_catalog!.includes(canaryId) };
  }
  const report = (
    app: FastifyInstance,
    cookie: string,
    body: unknown = { remote: 'mf_catalog' },
    headers: Record<string, string> = {},
    remoteAddress = '127.0.0.1',
  ) =>
    app.inject({
      method: 'POST',
      url: '/remote-failures',
      remoteAddress,
      headers: { cookie, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });

  it('a canary failing far more than the live release is withdrawn by itself, and the reason recorded', async () => {
    const { store, ids } = await storeWithReleases();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 50, shellSingletons: SINGLETONS });
    const app = await shell(store);
    const visitors = [];
    for (let i = 0; i < 80; i += 1) visitors.push(await visitor(app, ids[1]));
    const canaryVisitors = visitors.filter((v) => v.inCanary);
    expect(canaryVisitors.length).toBeGreaterThan(20);

    // The same visitor reporting again counts once.
    for (let i = 0; i < 10; i += 1) expect((await report(app, canaryVisitors[0]!.cookie)).statusCode).toBe(204);
    expect((await store.read('production')).remotes['mf-catalog']!.canary).not.toBeNull();

    // Each from an address of their own: a few visitors per address count (canary-guard.test.ts).
    for (const [i, v] of canaryVisitors.slice(1, 6).entries())
      expect((await report(app, v.cookie, undefined, {}, `10.0.1.${i}`)).statusCode).toBe(204);
    const entry = (await store.read('production')).remotes['mf-catalog']!;
    expect(entry.canary).toBeNull();
    expect(entry.live!.release).toBe(ids[0]);
    expect(entry.withdrawn).toMatchObject({
      release: ids[1],
      reason: expect.stringMatching(/^failure rate \d+\.\d% \(5 of \d+ loads\) against 0\.0% \(0 of \d+\)/),
    });
    // Everyone is back on the live release on the next load.
    expect(catalogOf((await app.inject({ url: '/remotes.json', headers: { cookie: canaryVisitors[0]!.cookie } })).body)).toContain(ids[0]);
  });

  it('two replicas share their counts through the registry: the canary is judged on their sum', async () => {
    const { store, ids } = await storeWithReleases();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 50, shellSingletons: SINGLETONS });
    // REMOTES_COUNTS_FLUSH_MS=0: each replica writes its counts at once (5 s by default).
    const replicas = [
      // One CANARY_COOKIE_SECRET: a visitor's cookie from one replica is good on the other.
      await shell(store, { REMOTES_REPLICA_ID: 'shell-a', REMOTES_COUNTS_FLUSH_MS: '0', CANARY_COOKIE_SECRET: 's'.repeat(40) }),
      await shell(store, { REMOTES_REPLICA_ID: 'shell-b', REMOTES_COUNTS_FLUSH_MS: '0', CANARY_COOKIE_SECRET: 's'.repeat(40) }),
    ] as const;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
    const visitors = [];
    for (let i = 0; i < 80; i += 1) visitors.push(await visitor(i % 2 === 0 ? replicas[0] : replicas[1], ids[1]));
    await settle();
    const canaryVisitors = visitors.filter((v) => v.inCanary);
    expect(canaryVisitors.length).toBeGreaterThan(20);
    const counts = await store.readCounts('production');
    const served = Object.values(counts['mf-catalog']!).reduce((sum, t) => sum + t.served, 0);
    expect(served).toBe(80);

    // Three failures on one replica, two on the other: neither alone has five.
    for (const [i, v] of canaryVisitors.slice(0, 5).entries()) {
      expect((await report(replicas[i < 3 ? 0 : 1], v.cookie, undefined, {}, `10.0.2.${i}`)).statusCode).toBe(204);
      await settle();
      if (i < 4) expect((await store.read('production')).remotes['mf-catalog']!.canary, `after ${i + 1}`).not.toBeNull();
    }
    const entry = (await store.read('production')).remotes['mf-catalog']!;
    expect(entry.canary).toBeNull();
    expect(entry.withdrawn).toMatchObject({ release: ids[1], reason: expect.stringMatching(/\(5 of \d+ loads\)/) });
    expect(tallyOf(await store.readCounts('production'), 'mf-catalog', ids[1]).failures).toBe(5);
  });

  it('failures on both sides alike withdraw nothing', async () => {
    const { store, ids } = await storeWithReleases();
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.1.0', canary: 50, shellSingletons: SINGLETONS });
    const app = await shell(store);
    const visitors = [];
    for (let i = 0; i < 80; i += 1) visitors.push(await visitor(app, ids[1]));
    const onCanary = visitors.filter((v) => v.inCanary).length;
    expect(onCanary).toBeGreaterThanOrEqual(25);
    expect(80 - onCanary).toBeGreaterThanOrEqual(25);
    // Every visitor, each from their own address, reports a failure: a shop-wide outage, which both
    // sides see at the same time (interleaved; the visitors' own order would put a random run of
    // canary reports first, which is exactly the evidence a real canary failure gives).
    const canary = visitors.filter((v) => v.inCanary);
    const live = visitors.filter((v) => !v.inCanary);
    const interleaved = Array.from({ length: Math.max(canary.length, live.length) }, (_, i) => [live[i], canary[i]]).flat();
    for (const [i, v] of interleaved.filter((x) => x !== undefined).entries()) {
      expect((await report(app, v.cookie, undefined, {}, `10.0.0.${i + 1}`)).statusCode).toBe(204);
    }
    expect((await store.read('production')).remotes['mf-catalog']!.canary).not.toBeNull();
  });

  it('refuses malformed reports, reports from another site, and too many from one address', async () => {
    const { store, ids } = await storeWithReleases();
    const app = await shell(store);
    const { cookie } = await visitor(app, ids[1]);
    for (const body of [{}, { remote: 'mf-nope' }, { remote: 'mf_catalog', email: 'a@b.c' }, ['mf_catalog'], 'mf_catalog']) {
      const response = await report(app, cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION' } });
    }
    expect((await report(app, cookie, { remote: 'mf_catalog', pad: 'x'.repeat(500) })).statusCode).toBe(413);
    const foreign = await report(app, cookie, undefined, { origin: 'https://evil.example', host: 'shop.example' });
    expect(foreign.statusCode).toBe(403);
    expect((await report(app, cookie, undefined, { origin: 'https://shop.example', host: 'shop.example' })).statusCode).toBe(204);
    let limited = 0;
    for (let i = 0; i < 25; i += 1) if ((await report(app, cookie)).statusCode === 429) limited += 1;
    expect(limited).toBeGreaterThan(0);
    expect((await report(app, cookie)).json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
  });

  it('without a registry there is no report endpoint', async () => {
    const app = await createWebServer({ role: 'shell', distDir, apiUrl: 'http://127.0.0.1:1', env: {} });
    started.push(app);
    expect((await report(app, '')).statusCode).toBe(404);
  });
});
