import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRegistryStore, promote, publishRelease, tallyOf, type Singletons } from '@boatshop/release-registry';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFTER_PAINT_PATH, AFTER_PAINT_SCRIPT } from './after-paint';
import { createWebServer } from './server';
import { ServerRenderer } from './server-render';
import { remotesEnv, serveRouteData } from './test/stand-in-remotes';

import { PRODUCT_PAGE, HYDRATABLE_PAGE, FRAME, THROWING_PAGE, SLOW_PAGE, LARGE_PAGE, NODE_BUILTIN_PAGE } from './test/server-builds';

const made: string[] = [];
// The shared modules' first import is slow on a busy machine; the server does it at start.
beforeAll(() => renderer('').warmUp(), 30_000);
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A registry folder holding releases of mf-catalog with these server builds (null: none); their manifest URLs. */
async function releases(builds: (string | null)[]): Promise<{ root: string; urls: string[] }> {
  const root = await tempDir('ssr-registry-');
  const urls: string[] = [];
  for (const [index, code] of builds.entries()) {
    const id = `1.0.${index}-${String(index).padStart(12, '0')}`;
    const dir = join(root, 'releases', 'mf-catalog', id);
    await mkdir(join(dir, 'server'), { recursive: true });
    if (code !== null) await writeFile(join(dir, 'server', 'pages.cjs'), code);
    urls.push(`/releases/mf-catalog/${id}/mf-manifest.json`);
  }
  return { root, urls };
}

const renderer = (root: string, extra: Partial<{ deadlineMs: number; maxBuilds: number; cacheTtlMs: number }> = {}) =>
  new ServerRenderer({
    env: { REMOTES_REGISTRY: root },
    deadlineMs: 2_000,
    maxBuilds: 8,
    httpTtlMs: 0,
    cacheTtlMs: 0,
    cacheMaxEntries: 10,
    ...extra,
  });

const product = (name: string, delayMs = 0) => ({ module: './Product', url: '/product/p1', data: { product: { name, delayMs } } });

describe('server renders of a release’s server build', () => {
  it("renders the release's page with the server's React and shared stores", async () => {
    const { root, urls } = await releases([PRODUCT_PAGE]);
    expect(await renderer(root).render(urls[0]!, product('Sea Breeze'))).toEqual({ html: '<h1>Sea Breeze / cart 0</h1>' });
  });

  it('puts a large Suspense boundary in place, without the inline script the pages’ policy refuses', async () => {
    const { root, urls } = await releases([LARGE_PAGE]);
    const rendered = await renderer(root).render(urls[0]!, product('Long list'));
    const html = 'html' in rendered ? rendered.html : '';
    expect(html).toContain('Boat number 1499');
    expect(html.length).toBeGreaterThan(20_000);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('Loading…');
  });

  it("two renders racing never see each other's data: each render has its own module state", async () => {
    const { root, urls } = await releases([PRODUCT_PAGE]);
    const ssr = renderer(root);
    // The first render waits while the second sets its own name: shared module state would leak it.
    const [first, second] = await Promise.all([ssr.render(urls[0]!, product('Alice', 60)), ssr.render(urls[0]!, product('Bob', 5))]);
    expect(first).toEqual({ html: expect.stringContaining('Alice') });
    expect(second).toEqual({ html: expect.stringContaining('Bob') });
    expect(JSON.stringify(first)).not.toContain('Bob');
    expect(JSON.stringify(second)).not.toContain('Alice');
  });

  it('a build that throws, one past its deadline and one requiring anything but the shared modules fail', async () => {
    const { root, urls } = await releases([THROWING_PAGE, SLOW_PAGE, NODE_BUILTIN_PAGE]);
    const ssr = renderer(root, { deadlineMs: 400 });
    expect(await ssr.render(urls[0]!, product('x'))).toEqual({ failed: 'release bug' });
    const started = performance.now();
    expect(await ssr.render(urls[1]!, product('x'))).toEqual({ failed: expect.stringMatching(/deadline \(400 ms\)/) });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(await ssr.render(urls[2]!, product('x'))).toEqual({
      failed: expect.stringMatching(/only require the shared modules, not node:fs/),
    });
  });

  it('a release without a server build, or one that does not render the page, is skipped, not failed', async () => {
    const { root, urls } = await releases([null, PRODUCT_PAGE]);
    const ssr = renderer(root);
    expect(await ssr.render(urls[0]!, product('x'))).toEqual({ skipped: 'no server build' });
    expect(await ssr.render(urls[1]!, { module: './Search', url: '/search', data: null })).toEqual({ skipped: expect.any(String) });
    // not a release this shell serves
    expect(await ssr.render('/releases/mf-catalog/../../etc/mf-manifest.json', product('x'))).toEqual({ skipped: 'no server build' });
  });

  it('reuses a page rendered from the same build for the same URL while the cache keeps it', async () => {
    // Each render evaluates the build afresh, so its renders are counted outside it.
    const counting = PRODUCT_PAGE.replace(
      '$name.set(input.data.product.name);',
      '$name.set(input.data.product.name + " #" + ++globalThis.ssrTestRenders);',
    );
    const { root, urls } = await releases([counting]);
    (globalThis as { ssrTestRenders?: number }).ssrTestRenders = 0;
    const ssr = renderer(root, { cacheTtlMs: 60_000 });
    expect(await ssr.render(urls[0]!, product('Sea Breeze'))).toEqual({ html: '<h1>Sea Breeze #1 / cart 0</h1>' });
    expect(await ssr.render(urls[0]!, product('Sea Breeze'))).toEqual({ html: '<h1>Sea Breeze #1 / cart 0</h1>' });
    expect(await ssr.render(urls[0]!, { ...product('Sea Breeze'), url: '/product/p2' })).toEqual({
      html: '<h1>Sea Breeze #2 / cart 0</h1>',
    });
  });

  it('keeps at most maxBuilds compiled builds: those of releases no longer asked for are evicted', async () => {
    const { root, urls } = await releases([PRODUCT_PAGE, PRODUCT_PAGE, PRODUCT_PAGE, PRODUCT_PAGE]);
    const ssr = renderer(root, { maxBuilds: 2 });
    for (const url of urls) expect(await ssr.render(url, product('y'))).toEqual({ html: expect.stringContaining('y') });
    expect(ssr.heldBuilds).toBe(2);
  });
});

describe("a page rendered in the shell's frame, for hydration", () => {
  async function shellBuild(code: string): Promise<string> {
    const dir = await tempDir('ssr-frame-');
    await writeFile(join(dir, 'pages.cjs'), code);
    return join(dir, 'pages.cjs');
  }
  const frameOf = (file: string) => ({ file, remote: 'mf_catalog', routes: {}, unavailable: [] });
  const at = (url: string, name: string, delayMs = 0) => ({ module: './Product', url, data: { product: { name, delayMs } } });

  it('renders the frame around the remote page, hydratable, with the data it was rendered from', async () => {
    const { root, urls } = await releases([HYDRATABLE_PAGE]);
    const frame = frameOf(await shellBuild(FRAME));
    expect(await renderer(root).renderInFrame(urls[0]!, at('/product/p1', 'Sea Breeze'), frame)).toEqual({
      html: '<div class="frame"><header>frame of /product/p1</header><h1>Sea Breeze / cart 0</h1></div>',
      hydratable: true,
      data: { product: { name: 'Sea Breeze', delayMs: 0 } },
    });
  });

  it("two renders racing never see each other's page or frame state, nor a signed-in name", async () => {
    const { root, urls } = await releases([HYDRATABLE_PAGE]);
    const frame = frameOf(await shellBuild(FRAME));
    const ssr = renderer(root);
    // The first render's page and frame both wait while the second sets its own name and address.
    const [first, second] = await Promise.all([
      ssr.renderInFrame(urls[0]!, at('/product/slow-a', 'Alice', 60), frame),
      ssr.renderInFrame(urls[0]!, at('/product/b', 'Bob', 5), frame),
    ]);
    expect(first).toMatchObject({ html: '<div class="frame"><header>frame of /product/slow-a</header><h1>Alice / cart 0</h1></div>' });
    expect(second).toMatchObject({ html: '<div class="frame"><header>frame of /product/b</header><h1>Bob / cart 0</h1></div>' });
  });

  it('a release built before hydration, or a shell without a server build, gives the page alone (not hydratable)', async () => {
    const { root, urls } = await releases([PRODUCT_PAGE, HYDRATABLE_PAGE]);
    const ssr = renderer(root);
    const frame = frameOf(await shellBuild(FRAME));
    expect(await ssr.renderInFrame(urls[0]!, at('/product/p1', 'Old'), frame)).toMatchObject({
      html: '<h1>Old / cart 0</h1>',
      hydratable: false,
    });
    expect(await ssr.renderInFrame(urls[1]!, at('/product/p1', 'New'), frameOf('/nowhere/pages.cjs'))).toMatchObject({
      html: '<h1>New / cart 0</h1>',
      hydratable: false,
    });
  });

  it('a frame or page that throws fails the render', async () => {
    const { root, urls } = await releases([
      HYDRATABLE_PAGE,
      HYDRATABLE_PAGE.replace('module.exports.page = function (input) {', '$&throw new Error("page bug");'),
    ]);
    const ssr = renderer(root);
    const broken = frameOf(await shellBuild(FRAME.replace('$url.set(input.url);', 'throw new Error("frame bug");')));
    expect(await ssr.renderInFrame(urls[0]!, at('/product/p1', 'x'), broken)).toEqual({ failed: 'frame bug' });
    expect(await ssr.renderInFrame(urls[1]!, at('/product/p1', 'x'), frameOf(await shellBuild(FRAME)))).toEqual({ failed: 'page bug' });
  });

  it('reuses a rendered page only for the same data: a changed price or stock renders anew at once', async () => {
    // Each render evaluates the build afresh, so its renders are counted outside it.
    const counting = HYDRATABLE_PAGE.replace('module.exports.page = function (input) {', '$&globalThis.ssrFramedRenders += 1;');
    const { root, urls } = await releases([counting]);
    (globalThis as { ssrFramedRenders?: number }).ssrFramedRenders = 0;
    const renders = () => (globalThis as { ssrFramedRenders?: number }).ssrFramedRenders;
    const frame = frameOf(await shellBuild(FRAME));
    const ssr = renderer(root, { cacheTtlMs: 60_000 });
    await ssr.renderInFrame(urls[0]!, at('/product/p1', 'Before'), frame);
    expect(await ssr.renderInFrame(urls[0]!, at('/product/p1', 'Before'), frame)).toMatchObject({
      html: expect.stringContaining('Before'),
    });
    expect(renders()).toBe(1);
    // The API's answer changed: the page is rendered from it, never the cached HTML with the new data.
    expect(await ssr.renderInFrame(urls[0]!, at('/product/p1', 'After'), frame)).toMatchObject({
      html: expect.stringContaining('After'),
      data: { product: { name: 'After', delayMs: 0 } },
    });
    expect(renders()).toBe(2);
  });
});

describe("the shell's pages with server renders", () => {
  const SINGLETONS: Singletons = { react: { required: '^19.2.0', built: '19.2.1' } };
  let api: FastifyInstance;
  let apiUrl: string;
  /** What the API stand-in answers for a product's name (an admin may change it). */
  let productName = 'Sea Breeze 34';
  let standIn: FastifyInstance;
  let standInUrl: string;
  let distDir: string;
  const started: FastifyInstance[] = [];

  beforeAll(async () => {
    api = Fastify();
    api.get('/api/products/:id', async (request) => ({
      id: (request.params as { id: string }).id,
      name: productName,
      priceCents: 8_900_000,
      thumbnailUrl: '/api/images/sea-breeze.jpg',
      descriptionHtml: '<p>A fast cruiser.</p>',
    }));
    apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
    standIn = Fastify();
    serveRouteData(standIn);
    standInUrl = await standIn.listen({ port: 0, host: '127.0.0.1' });
    distDir = await tempDir('ssr-shell-');
    await writeFile(
      join(distDir, 'index.html'),
      '<!doctype html><html><head><title>Boat shop</title></head><body><div id="root"></div></body></html>',
    );
    return async () => {
      await Promise.all(started.map((app) => app.close()));
      await api.close();
      await standIn.close();
    };
  });

  async function shellWithRelease(serverBuild: string, shellDist = distDir) {
    const store = new FileRegistryStore(await tempDir('ssr-store-'));
    const dist = await tempDir('ssr-release-');
    await writeFile(join(dist, 'mf-manifest.json'), JSON.stringify({ id: 'mf_catalog', metaData: { publicPath: 'auto' } }));
    await writeFile(
      join(dist, 'routes.json'),
      JSON.stringify({
        schema: 1,
        remote: 'mf_catalog',
        routes: [{ path: '/product/:productID', module: './Product', access: 'public', layout: 'main' }],
      }),
    );
    await mkdir(join(dist, 'server'));
    await writeFile(join(dist, 'server', 'pages.cjs'), serverBuild);
    const { record } = await publishRelease(store, {
      remote: 'mf-catalog',
      distDir: dist,
      version: '1.0.0',
      commit: 'c0ffee',
      builtAt: new Date().toISOString(),
      singletons: SINGLETONS,
    });
    await promote(store, { environment: 'production', remote: 'mf-catalog', version: '1.0.0', shellSingletons: SINGLETONS });
    const app = await createWebServer({
      role: 'shell',
      distDir: shellDist,
      apiUrl,
      // A deadline for a busy machine: these tests are about where the render goes, not its time.
      env: {
        REMOTES_REGISTRY: store.root,
        REMOTES_REGISTRY_TTL_MS: '0',
        REMOTES_COUNTS_FLUSH_MS: '0',
        SSR_DEADLINE_MS: '5000',
        ...remotesEnv(standInUrl),
      },
    });
    started.push(app);
    return { app, store, release: record.id };
  }

  it("a product page carries the release's server render of its content, for visitors without JavaScript", async () => {
    const { app } = await shellWithRelease(PRODUCT_PAGE);
    const page = await app.inject({ url: '/product/p7', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      '<div id="root"></div><noscript><div class="shell-server-rendered"><h1>Sea Breeze 34 / cart 0</h1></div></noscript>',
    );
  });

  it('a release whose server build throws still serves the page (rendered in the browser), and the failure counts against it', async () => {
    const { app, store, release } = await shellWithRelease(THROWING_PAGE);
    const page = await app.inject({ url: '/product/p7', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.body).not.toContain('<noscript>');
    await expect.poll(async () => tallyOf(await store.readCounts('production'), 'mf-catalog', release)).toEqual({ served: 1, failures: 1 });
  });

  it('a product page carries the frame and page rendered into #root and the data they were rendered from, once, for hydration', async () => {
    const shellDist = await tempDir('ssr-shell-framed-');
    await writeFile(
      join(shellDist, 'index.html'),
      '<!doctype html><html><head><title>Boat shop</title></head><body><div id="root"></div></body></html>',
    );
    await mkdir(join(shellDist, 'server'));
    await writeFile(join(shellDist, 'server', 'pages.cjs'), FRAME);
    const { app } = await shellWithRelease(HYDRATABLE_PAGE, shellDist);
    const page = await app.inject({ url: '/product/p7', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      '<div id="root"><div class="frame"><header>frame of /product/p7</header><h1>Sea Breeze 34 / cart 0</h1></div></div>',
    );
    expect(page.body).not.toContain('<noscript>');
    const block = /<script type="application\/json" id="boatshop-page-data">(.*?)<\/script>/.exec(page.body)?.[1];
    expect(JSON.parse(block!).serverRendered).toEqual({
      remote: 'mf_catalog',
      module: 'Product',
      url: '/product/p7',
      data: { product: expect.objectContaining({ name: 'Sea Breeze 34', descriptionHtml: '<p>A fast cruiser.</p>' }) },
    });
    // The product's data is in the page once, in the data block (the head carries only what it needs of it).
    expect(page.body.split('"descriptionHtml"').length - 1).toBe(1);
  });

  it('a page rendered for hydration starts its scripts after paint, through the script the shell serves', async () => {
    const shellDist = await tempDir('ssr-shell-after-paint-');
    await writeFile(
      join(shellDist, 'index.html'),
      '<!doctype html><html><head><link rel="preload" as="script" href="/main.1234abcd.js"><title>Boat shop</title>' +
        '<script defer src="/main.1234abcd.js"></script></head><body><div id="root"></div></body></html>',
    );
    await mkdir(join(shellDist, 'server'));
    await writeFile(join(shellDist, 'server', 'pages.cjs'), FRAME);
    const { app } = await shellWithRelease(HYDRATABLE_PAGE, shellDist);
    const page = await app.inject({ url: '/product/p7', headers: { accept: 'text/html' } });
    expect(page.body).toContain('<h1>Sea Breeze 34 / cart 0</h1>');
    expect(page.body).not.toMatch(/<script defer|as="script"/);
    expect(page.body).toContain(`<script async src="${AFTER_PAINT_PATH}" data-run="[&#34;/main.1234abcd.js&#34;]"`);
    const script = await app.inject({ url: AFTER_PAINT_PATH });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toBe(AFTER_PAINT_SCRIPT);
  });

  it('a page rendered on the server shows the API’s current answer, not the head’s cached one (price and stock are bought from it)', async () => {
    const shellDist = await tempDir('ssr-shell-fresh-');
    await writeFile(
      join(shellDist, 'index.html'),
      '<!doctype html><html><head><title>Boat shop</title></head><body><div id="root"></div></body></html>',
    );
    await mkdir(join(shellDist, 'server'));
    await writeFile(join(shellDist, 'server', 'pages.cjs'), FRAME);
    const { app } = await shellWithRelease(HYDRATABLE_PAGE, shellDist);
    const load = () => app.inject({ url: '/product/p9', headers: { accept: 'text/html' } });
    try {
      expect((await load()).body).toContain('<h1>Sea Breeze 34 / cart 0</h1>');
      productName = 'Sea Breeze 34 (sold)';
      expect((await load()).body).toContain('<h1>Sea Breeze 34 (sold) / cart 0</h1>');
    } finally {
      productName = 'Sea Breeze 34';
    }
  });
});
