import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteSource, acceptRoutes, routesUrlOf } from './remotes';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { SHOP_ROUTES } from './test/shop-routes';

// A remote at its default location, answering routes.json beside its mf-manifest.json.
let remote: FastifyInstance;
let origin: string;
let answer: { status: number; body: unknown };
let reads = 0;

const NEWS = { path: '/news', module: './News', access: 'public', layout: 'main' };

beforeAll(async () => {
  remote = Fastify();
  remote.get('/routes.json', async (_request, reply) => {
    reads += 1;
    return reply.code(answer.status).send(answer.body);
  });
  origin = (await remote.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
});

afterAll(async () => {
  await remote.close();
});

describe("the remotes' route data, read by the shell's server", () => {
  it('reads routes.json beside the manifest, keeps it for the cache period, and keeps the last good one when the remote fails', async () => {
    answer = { status: 200, body: { schema: 1, remote: 'mf_catalog', routes: [NEWS] } };
    reads = 0;
    const logged: string[] = [];
    const source = new RouteSource({ env: {}, ttlMs: 60_000, log: (message) => logged.push(message) });
    const manifest = { mf_catalog: `${origin}/mf-manifest.json` };
    expect(await source.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
    expect(await source.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
    expect(reads).toBe(1);

    const refreshing = new RouteSource({ env: {}, ttlMs: 0, log: (message) => logged.push(message) });
    expect(await refreshing.routesOf('mf_catalog', manifest.mf_catalog)).toEqual([NEWS]);
    answer = { status: 500, body: {} };
    await refreshing.routesOf('mf_catalog', manifest.mf_catalog);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await refreshing.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
    expect(logged.join('\n')).toContain('cannot read the route data of mf_catalog (');
    expect(logged.join('\n')).toContain('keeping the last good');
  });

  it('makes up no pages: a remote whose route data cannot be read, is not route data or is another remote’s is named unavailable', async () => {
    const logged: string[] = [];
    const source = () => new RouteSource({ env: {}, log: (message, error) => logged.push(`${message}: ${String(error)}`) });
    const manifest = { mf_catalog: `${origin}/mf-manifest.json` };
    const unknown = { routes: {}, unavailable: ['mf_catalog'] };
    answer = { status: 200, body: { schema: 2, remote: 'mf_catalog', routes: [NEWS] } };
    expect(await source().routesFor(manifest)).toEqual(unknown);
    expect(logged.at(-1)).toContain('unknown schema 2');
    answer = { status: 200, body: { schema: 1, remote: 'mf_admin', routes: [NEWS] } };
    expect(await source().routesFor(manifest)).toEqual(unknown);
    expect(logged.at(-1)).toContain('route data of mf_admin given for mf_catalog');
    answer = { status: 404, body: {} };
    expect(await source().routesFor(manifest)).toEqual(unknown);
    expect(logged.at(-1)).toContain('its pages are unknown (unavailable) until it is read');
    // Refused connections; the other remotes' routes are served beside it.
    expect(await source().routesFor({ mf_catalog: 'http://127.0.0.1:1/mf-manifest.json', mf_news: manifest.mf_catalog })).toEqual({
      routes: {},
      unavailable: ['mf_catalog', 'mf_news'],
    });
    answer = { status: 200, body: { schema: 1, remote: 'mf_catalog', routes: [NEWS] } };
    expect(await source().routesFor({ mf_news: 'http://127.0.0.1:1/mf-manifest.json', ...manifest })).toEqual({
      routes: { mf_catalog: [NEWS] },
      unavailable: ['mf_news'],
    });
  });

  it('names a remote unreachable since the start unavailable, tries again after the cache period, and serves its routes once it answers', async () => {
    // A port that refuses connections, until a remote starts there.
    const probe = Fastify();
    const port = Number(new URL(await probe.listen({ port: 0, host: '127.0.0.1' })).port);
    await probe.close();
    const logged: string[] = [];
    const source = new RouteSource({ env: {}, ttlMs: 200, unknownRetryMs: 200, log: (message) => logged.push(message) });
    const manifest = { mf_catalog: `http://127.0.0.1:${port}/mf-manifest.json` };
    expect(await source.routesFor(manifest)).toEqual({ routes: {}, unavailable: ['mf_catalog'] });
    expect(await source.routesFor(manifest)).toEqual({ routes: {}, unavailable: ['mf_catalog'] });
    expect(logged).toHaveLength(1);

    const back = Fastify();
    back.get('/routes.json', async () => ({ schema: 1, remote: 'mf_catalog', routes: [NEWS] }));
    await back.listen({ port, host: '127.0.0.1' });
    try {
      // Within the cache period the last answer stands; after it the read is tried again, and waited for.
      expect(await source.routesFor(manifest)).toEqual({ routes: {}, unavailable: ['mf_catalog'] });
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await source.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
    } finally {
      await back.close();
    }
    // Down again: the last good routes are kept.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await source.routesFor(manifest);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await source.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
  });

  it('asks a remote whose pages it never read again sooner than the cache period (npm start: the shell asked before the remote listened)', async () => {
    const probe = Fastify();
    const port = Number(new URL(await probe.listen({ port: 0, host: '127.0.0.1' })).port);
    await probe.close();
    const source = new RouteSource({ env: {}, ttlMs: 60_000, unknownRetryMs: 100 });
    const manifest = { mf_catalog: `http://127.0.0.1:${port}/mf-manifest.json` };
    expect(await source.routesFor(manifest)).toEqual({ routes: {}, unavailable: ['mf_catalog'] });
    const late = Fastify();
    late.get('/routes.json', async () => ({ schema: 1, remote: 'mf_catalog', routes: [NEWS] }));
    await late.listen({ port, host: '127.0.0.1' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await source.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
    } finally {
      await late.close();
    }
  });

  it('leaves an invalid entry out of the table it serves, keeps the rest of that remote, and logs it once, not per request', async () => {
    answer = { status: 200, body: { schema: 1, remote: 'mf_catalog', routes: [NEWS, { ...NEWS, path: '/open', access: 'everyone' }] } };
    const logged: string[] = [];
    const source = new RouteSource({ env: {}, ttlMs: 0, log: (message) => logged.push(message) });
    const manifest = { mf_catalog: `${origin}/mf-manifest.json` };
    for (let request = 0; request < 3; request += 1) {
      expect(await source.routesFor(manifest)).toEqual({ routes: { mf_catalog: [NEWS] }, unavailable: [] });
      // Each request past the (zero) cache period reads the same data again in the background.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reads).toBeGreaterThan(1);
    expect(logged).toEqual([expect.stringContaining('mf_catalog route 2: unknown access "everyone"')]);
  });

  it('takes a release’s recorded route data from the registry instead of asking the network; a release that recorded none is unavailable', async () => {
    const source = new RouteSource({
      env: {},
      fromRelease: async (_mfName, url) =>
        url.includes('/1.0.0-') ? { schema: 1, remote: 'mf_catalog', routes: [NEWS] } : url.startsWith('/releases/') ? null : undefined,
    });
    expect(await source.routesOf('mf_catalog', '/releases/mf-catalog/1.0.0-aaaaaaaaaaaa/mf-manifest.json')).toEqual([NEWS]);
    expect(await source.routesFor({ mf_catalog: '/releases/mf-catalog/0.9.0-aaaaaaaaaaaa/mf-manifest.json' })).toEqual({
      routes: {},
      unavailable: ['mf_catalog'],
    });
  });

  it('finds routes.json beside absolute manifest URLs, and same-origin paths on REMOTES_SERVER_ORIGIN only', () => {
    expect(routesUrlOf('https://cdn.example/catalog/mf-manifest.json', {})).toBe('https://cdn.example/catalog/routes.json');
    expect(routesUrlOf('/remotes/mf-catalog/mf-manifest.json', {})).toBeNull();
    expect(routesUrlOf('/remotes/mf-catalog/mf-manifest.json', { REMOTES_SERVER_ORIGIN: 'http://proxy:80' })).toBe(
      'http://proxy/remotes/mf-catalog/routes.json',
    );
  });
});

// The last line before the browser (the registry refuses all of this at release and promotion):
// what the shell's server gives the shell is a table it can build its router from as it is.
describe('the route table the shell is given (acceptRoutes)', () => {
  it('keeps the shop’s own route data whole', () => {
    expect(acceptRoutes(SHOP_ROUTES)).toEqual({ routes: SHOP_ROUTES, problems: [] });
  });

  it('leaves out entries with an unknown access or layout, or no module, and says why', () => {
    const { routes, problems } = acceptRoutes({
      mf_catalog: [
        { path: '/', module: './Home', access: 'public', layout: 'full-bleed' },
        { path: '/open', module: './Open', access: 'everyone', layout: 'main' },
        { path: '/wide', module: './Wide', access: 'public', layout: 'sideways' },
        { path: '/bare', access: 'public', layout: 'main' },
        'not a route',
      ],
    });
    expect(problems).toEqual([
      expect.stringContaining('mf_catalog route 2: unknown access "everyone"'),
      expect.stringContaining('mf_catalog route 3: unknown layout "sideways"'),
      expect.stringContaining('mf_catalog route 4: module is required'),
      'mf_catalog route 5: expected an object',
    ]);
    expect(routes).toEqual({ mf_catalog: [{ path: '/', module: './Home', access: 'public', layout: 'full-bleed' }] });
  });

  it('detects a path two remotes claim, a prefix included, and keeps the first claim in table order', () => {
    const table: RouteTable = {
      ...SHOP_ROUTES,
      mf_account: [...SHOP_ROUTES.mf_account!, { path: '/CART', module: './Basket', access: 'public', layout: 'main' }],
      mf_catalog: [...SHOP_ROUTES.mf_catalog!, { path: '/admin/boats', module: './Boats', access: 'public', layout: 'main' }],
    };
    const { routes, problems } = acceptRoutes(table);
    expect(problems).toEqual([
      'mf_account: /CART collides with /cart of mf_cart_checkout; left out',
      'mf_admin: /admin/* collides with /admin/boats of mf_catalog; left out',
    ]);
    expect(routes.mf_cart_checkout).toEqual(SHOP_ROUTES.mf_cart_checkout);
    expect(routes.mf_account).toEqual(SHOP_ROUTES.mf_account);
    expect(routes.mf_catalog).toContainEqual(expect.objectContaining({ path: '/admin/boats' }));
    const adminPages = SHOP_ROUTES.mf_admin!.map((route) => route.path).filter((path) => path !== '/admin/*');
    expect(adminPages).toContain('/admin/orders/:orderID');
    expect(routes.mf_admin!.map((route) => route.path)).toEqual(adminPages);
  });

  it('keeps the first of a path one remote declares twice', () => {
    const { routes, problems } = acceptRoutes({
      mf_catalog: [
        { path: '/news', module: './News', access: 'public', layout: 'main' },
        { path: '/News', module: './Other', access: 'public', layout: 'main' },
      ],
    });
    expect(problems).toEqual(['mf_catalog: /News is declared twice; the first is kept']);
    expect(routes.mf_catalog).toEqual([{ path: '/news', module: './News', access: 'public', layout: 'main' }]);
  });
});
