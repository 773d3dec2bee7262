// A stand-in API that also plays the remotes (each remote's routes.json and mf_catalog's manifest,
// under /mf-catalog/ and the like), for the tests of the shell's pages: shell-pages-head.test.ts
// and shell-pages-sitemap.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createWebServer } from '../server';
import { remotesEnv, serveRouteData } from './stand-in-remotes';

export const PRODUCT_ID = '0b7e6f4e-6a43-4d3f-9b7e-2f1c7a9d5e11';
export const HOSTILE_ID = '1c8f7a5f-7b54-4e4a-8c8f-3a2d8b0e6f22';
export const SLOW_ID = '2d9a8b6a-8c65-4f5b-9d9a-4b3e9c1f7a33';
export const PUBLIC_URL = 'https://boats.example';
export const CATALOGUE_SIZE = 120_003;

/** The stand-in's addresses and what it counted, filled in by setUpShellPagesStandIn's hooks. */
export const standIn = {
  distDir: '',
  apiUrl: '',
  /** Where the stand-in plays mf_catalog. */
  catalogUrl: '',
  productReads: 0,
  listingReads: 0,
};
let api: FastifyInstance;
const started: FastifyInstance[] = [];

export const MANIFEST = {
  id: 'mf_catalog',
  name: 'mf_catalog',
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
  exposes: [
    {
      name: 'Product',
      path: './Product',
      assets: {
        js: { sync: ['__federation_expose_Product.2c58931f.js'], async: [] },
        css: { sync: ['__federation_expose_Product.091ab31a.css'], async: [] },
      },
    },
    {
      name: 'Search',
      path: './Search',
      assets: { js: { sync: ['__federation_expose_Search.36d5ef18.js'], async: [] }, css: { sync: [], async: [] } },
    },
  ],
};

/** Product ids of a catalogue too big for one sitemap file, generated rather than stored. */
export const idAt = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/** Starts the stand-in API for the test file that calls it, and closes the shells each test started. */
export function setUpShellPagesStandIn(): void {
  beforeAll(async () => {
    standIn.distDir = await mkdtemp(join(tmpdir(), 'shell-pages-test-'));
    await writeFile(
      join(standIn.distDir, 'index.html'),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Boat shop: sailing boats and yachts</title><script defer src="/main.1234abcd.js"></script></head><body><div id="root"></div></body></html>',
    );
    await writeFile(join(standIn.distDir, 'main.1234abcd.js'), 'console.log("shell")');

    api = Fastify();
    api.get<{ Params: { id: string } }>('/api/products/:id', async (request, reply) => {
      standIn.productReads += 1;
      const { id } = request.params;
      if (id === SLOW_ID) await new Promise((resolve) => setTimeout(resolve, 1500));
      if (id === PRODUCT_ID || id === SLOW_ID) {
        return {
          id,
          name: 'Aldren 22 Daysailer',
          thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
          priceCents: 2_190_000,
          descriptionHtml: '<p>An afternoon on the water, no crew required.</p>',
          category: 'sailing-boats',
          createdAt: '2024-01-01T00:00:00.000Z',
          availability: 'sold_out',
        };
      }
      if (id === HOSTILE_ID) {
        return {
          id,
          name: '</script><script>alert(1)</script>',
          thumbnailUrl: '/x.svg',
          priceCents: 100,
          descriptionHtml: '',
          category: 'yachts',
          createdAt: '2024-01-01T00:00:00.000Z',
        };
      }
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
    });
    // The API's keyset paging (api/src/routes/api/products/sitemap), over generated ids: a cursor is the index of the last row.
    api.get<{ Querystring: { size: string } }>('/api/products/sitemap/pages', async (request) => {
      const size = Number(request.query.size);
      const starts: (string | null)[] = [null];
      for (let end = size; end < CATALOGUE_SIZE; end += size) starts.push(String(end - 1));
      return { total: CATALOGUE_SIZE, starts };
    });
    api.get<{ Querystring: { after?: string; limit: string } }>('/api/products/sitemap', async (request) => {
      const from = request.query.after === undefined ? 0 : Number(request.query.after) + 1;
      const to = Math.min(from + Number(request.query.limit), CATALOGUE_SIZE);
      const data = Array.from({ length: to - from }, (_, i) => ({
        id: idAt(from + i),
        lastModified: new Date(Date.UTC(2024, 0, 1) + (from + i) * 1000).toISOString(),
      }));
      return { data, cursor: to < CATALOGUE_SIZE ? String(to - 1) : null, isLastPage: to >= CATALOGUE_SIZE };
    });
    // The listing's first page: yachts has products, a search for 'nothing' has none.
    api.get<{ Querystring: { filterType?: string; q?: string } }>('/api/products', async (request) => {
      standIn.listingReads += 1;
      if (request.query.q === 'nothing') return { data: [], cursor: null, isLastPage: true };
      const picture = request.query.filterType === 'yachts' ? '/api/images/ketch-40.svg' : '/api/images/aldren-22-daysailer.svg';
      return { data: [{ id: PRODUCT_ID, thumbnailUrl: picture }], cursor: null, isLastPage: true };
    });
    api.get('/api/products/search/builders', async () => ({ data: [{ builder: 'Cap Ferrand', boats: 2 }] }));
    api.get('/:service/mf-manifest.json', async () => MANIFEST);
    serveRouteData(api);
    standIn.apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
    standIn.catalogUrl = `${standIn.apiUrl}/mf-catalog`;
  });

  beforeEach(() => {
    standIn.productReads = 0;
    standIn.listingReads = 0;
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    await api.close();
    await rm(standIn.distDir, { recursive: true, force: true });
  });
}

/** The shell's server in front of the stand-in, closed after the test. */
export async function shell(env: Record<string, string> = {}): Promise<FastifyInstance> {
  // The stand-in API also plays the remotes, so their manifest URLs are on that origin.
  const app = await createWebServer({
    role: 'shell',
    distDir: standIn.distDir,
    apiUrl: standIn.apiUrl,
    env: { PUBLIC_URL, ...remotesEnv(standIn.apiUrl), HEAD_API_TIMEOUT_MS: '400', ...env },
  });
  started.push(app);
  return app;
}

export const page = (app: FastifyInstance, url: string) => app.inject({ url, headers: { accept: 'text/html' } });

export function jsonScript(html: string, selector: RegExp): unknown {
  const match = selector.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

/** A shell server a test made itself, closed after the test. */
export async function track(app: Promise<FastifyInstance>): Promise<FastifyInstance> {
  const instance = await app;
  started.push(instance);
  return instance;
}
