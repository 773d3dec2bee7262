import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK_ROUTES, RouteSource, routesUrlOf } from './remotes';

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
    expect(await source.routesFor(manifest)).toEqual({ mf_catalog: [NEWS] });
    expect(await source.routesFor(manifest)).toEqual({ mf_catalog: [NEWS] });
    expect(reads).toBe(1);

    const refreshing = new RouteSource({ env: {}, ttlMs: 0, log: (message) => logged.push(message) });
    expect(await refreshing.routesOf('mf_catalog', manifest.mf_catalog)).toEqual([NEWS]);
    answer = { status: 500, body: {} };
    await refreshing.routesOf('mf_catalog', manifest.mf_catalog);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await refreshing.routesOf('mf_catalog', manifest.mf_catalog)).toEqual([NEWS]);
    expect(logged.join('\n')).toContain('cannot read the route data of mf_catalog');
  });

  it('refuses invalid route data or data of another remote, and falls back for a remote never read or built before route data', async () => {
    const logged: string[] = [];
    const source = () => new RouteSource({ env: {}, log: (message, error) => logged.push(`${message}: ${String(error)}`) });
    answer = { status: 200, body: { schema: 1, remote: 'mf_catalog', routes: [{ ...NEWS, access: 'everyone' }] } };
    expect(await source().routesOf('mf_catalog', `${origin}/mf-manifest.json`)).toEqual(FALLBACK_ROUTES.mf_catalog);
    expect(logged.at(-1)).toContain('unknown access "everyone"');
    answer = { status: 200, body: { schema: 1, remote: 'mf_admin', routes: [NEWS] } };
    expect(await source().routesOf('mf_catalog', `${origin}/mf-manifest.json`)).toEqual(FALLBACK_ROUTES.mf_catalog);
    expect(logged.at(-1)).toContain('route data of mf_admin given for mf_catalog');
    answer = { status: 404, body: {} };
    expect(await source().routesOf('mf_catalog', `${origin}/mf-manifest.json`)).toEqual(FALLBACK_ROUTES.mf_catalog);
    // A remote the shell has no fallback for has no pages until its route data is read.
    expect(await source().routesOf('mf_news', 'http://127.0.0.1:1/mf-manifest.json')).toBeNull();
  });

  it('takes a release’s recorded route data from the registry instead of asking the network', async () => {
    const source = new RouteSource({
      env: {},
      fromRelease: async (_mfName, url) => (url.startsWith('/releases/') ? { schema: 1, remote: 'mf_catalog', routes: [NEWS] } : undefined),
    });
    expect(await source.routesOf('mf_catalog', '/releases/mf-catalog/1.0.0-aaaaaaaaaaaa/mf-manifest.json')).toEqual([NEWS]);
  });

  it('finds routes.json beside absolute manifest URLs, and same-origin paths on REMOTES_SERVER_ORIGIN only', () => {
    expect(routesUrlOf('https://cdn.example/catalog/mf-manifest.json', {})).toBe('https://cdn.example/catalog/routes.json');
    expect(routesUrlOf('/remotes/mf-catalog/mf-manifest.json', {})).toBeNull();
    expect(routesUrlOf('/remotes/mf-catalog/mf-manifest.json', { REMOTES_SERVER_ORIGIN: 'http://proxy:80' })).toBe(
      'http://proxy/remotes/mf-catalog/routes.json',
    );
  });
});
