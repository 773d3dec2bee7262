import { escapeHtml, jsonForScript, type PageData as HeadPageData } from './head';
import type { Page, RemotePage } from './pages';
import { readReleaseManifest } from './release-files';
import type { RemotesBody } from './remotes';
import { PAGE_DATA_ID, type PageDataBlock } from '@boatshop/web-shared/remotes-body';
import { TtlCache } from './ttl-cache';
import { GALLERY_MAIN_SIZES, SEARCH_URL_FACETS } from '@boatshop/contract/constants';

type Env = Record<string, string | undefined>;

/** The part of a remote's mf-manifest.json the hints need. */
interface MfManifest {
  metaData?: { remoteEntry?: { name?: string; path?: string }; publicPath?: string };
  exposes?: { name: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }[];
}

const MANIFEST_TTL_MS = 5_000;

/**
 * The first paint of a phone waits for a chain: the HTML, the shell's script, /remotes.json, the
 * remote's mf-manifest.json, its remoteEntry.js, the page's chunk, the API call. The shell's
 * server knows all of it but the last two's contents: it writes the remotes and the current
 * remote's manifest into the page (a JSON data block, not a script: the CSP allows no inline
 * script) and hints the browser at the entry, the chunk, its stylesheet and the API data, so they
 * load in parallel with the shell's own script.
 */
export class FirstPaint {
  private readonly manifests = new TtlCache<MfManifest | null>({ ttlMs: MANIFEST_TTL_MS, maxEntries: 16 });

  constructor(private readonly options: { env: Env; timeoutMs: number }) {}

  async forPage(
    page: Page,
    remotePage: RemotePage | null,
    search: URLSearchParams,
    /** The visitor's /remotes.json (remotes and their routes); null when it could not be built. */
    body: RemotesBody | null,
  ): Promise<{
    /** The hints and the data block, for a page the browser renders (written only when asked: a page rendered on the server writes its own block). */
    html: () => string;
    data: PageDataBlock | null;
    /** The hints but the API data's, for a page rendered on the server (its data comes in the data block). */
    hints?: string;
    /** The remote page's stylesheets, which a page rendered on the server links. */
    stylesheets?: string[];
  }> {
    // Without it the runtime asks /remotes.json itself, which reports the problem.
    if (!body) return { html: () => '', data: null };
    const { remotes } = body;
    const data: PageDataBlock = { remotes, routes: body.routes, unavailable: body.unavailable, manifests: {} };
    const hints: string[] = [];
    const stylesheets: string[] = [];
    const manifestUrl = remotePage ? remotes[remotePage.remote] : undefined;
    if (remotePage && manifestUrl) {
      const manifest = await this.manifest(manifestUrl);
      const base = new URL('.', new URL(manifestUrl, 'http://shell.invalid/'));
      const href = (file: string) => (base.origin === 'http://shell.invalid' ? `${base.pathname}${file}` : new URL(file, base).href);
      if (base.origin !== 'http://shell.invalid') hints.push(`<link rel="preconnect" href="${escapeHtml(base.origin)}">`);
      if (manifest) {
        data.manifests[manifestUrl] = manifest;
        // Remote entries and chunks are classic scripts the MF runtime adds without crossorigin:
        // preload (not modulepreload), without crossorigin, so the browser reuses the response.
        const entry = manifest.metaData?.remoteEntry;
        if (entry?.name)
          hints.push(`<link rel="preload" as="script" href="${escapeHtml(href(`${entry.path ? `${entry.path}/` : ''}${entry.name}`))}">`);
        const expose = manifest.exposes?.find((e) => e.name === remotePage.page);
        for (const file of expose?.assets?.js?.sync ?? []) hints.push(`<link rel="preload" as="script" href="${escapeHtml(href(file))}">`);
        for (const file of expose?.assets?.css?.sync ?? []) {
          hints.push(`<link rel="preload" as="style" href="${escapeHtml(href(file))}">`);
          stylesheets.push(href(file));
        }
      }
    }
    const apiPath = apiDataOf(page, search);
    // Same URL, mode and credentials as the api client's fetch, so the page's call takes this response.
    // Left out of `hints`, which serve a page rendered on the server: its data comes in the page.
    const apiHint = apiPath ? `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(apiPath)}">` : '';
    return { html: () => hints.join('') + apiHint + pageDataScript(data), data, hints: hints.join(''), stylesheets };
  }

  private manifest(url: string): Promise<MfManifest | null> {
    return this.manifests.getOrLoad(url, async () => {
      // A manifest on the shell's own origin (a deployment mounting remotes under a path) is not fetched here.
      if (!/^https?:\/\//.test(url)) return (await readReleaseManifest(this.options.env, url)) as MfManifest | null;
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
        return response.ok ? ((await response.json()) as MfManifest) : null;
      } catch {
        return null;
      }
    });
  }
}

/** The page data block as it goes into the page: JSON, not executed (the CSP allows no inline script). */
export function pageDataScript(data: PageDataBlock): string {
  return `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(data)}</script>`;
}

/** The API call the page's remote makes first, spelled as the api client spells it (packages/state). */
export function apiDataOf(page: Page, search: URLSearchParams): string | null {
  if (page.kind === 'product') return `/api/products/${encodeURIComponent(page.id)}`;
  if (page.kind !== 'search') return null;
  const faceted = facetedSearchOf(page, search);
  if (faceted !== undefined) return faceted;
  const params = new URLSearchParams();
  if (page.category) params.set('filterType', page.category.slug);
  const q = search.get('q');
  if (q) params.set('q', q);
  // 'Hide sold boats' (mf-catalog's search page): ?available=1 in the page, available=true to the API.
  if (search.get('available') === '1') params.set('available', 'true');
  if (page.cursor) params.set('cursor', page.cursor);
  return params.size > 0 ? `/api/products?${params}` : '/api/products';
}

/**
 * A faceted search address's list (`?builder=…`, `?sort=…`, a range: mf-catalog's facets.ts), as
 * the catalogue asks the search API for it (its answer carries the total and the facet counts):
 * prices are whole euros in the address and cents to the API, `vatPaid=1` is `vatPaid=true`, a
 * builder or country list is comma-separated whether the page wrote it so or a form repeated it.
 * Undefined for an address without facets (the plain list API); null for one whose facets the
 * page would not read as they are (not rendered on the server: the browser renders it).
 */
export function facetedSearchOf(page: Extract<Page, { kind: 'search' }>, search: URLSearchParams): string | null | undefined {
  const params = new URLSearchParams();
  if (page.category) params.set('category', page.category.slug);
  const q = search.get('q');
  if (q) params.set('q', q);
  if (search.get('available') === '1') params.set('hideSold', 'true');
  let chosen = false;
  for (const name of SEARCH_URL_FACETS) {
    const values = search
      .getAll(name)
      .flatMap((value) => (name === 'builder' || name === 'country' ? value.split(',') : [value]))
      .map((value) => value.trim())
      .filter(Boolean);
    if (values.length === 0 || (name === 'sort' && values[0] === 'newest')) continue;
    chosen = true;
    if (name === 'builder' || name === 'country') params.set(name, values.join(','));
    else if (name === 'vatPaid') {
      if (values[0] !== '1') return null;
      params.set(name, 'true');
    } else if (/Min$|Max$/.test(name)) {
      const number = Number(values[0]);
      if (!Number.isFinite(number) || number < 0) return null;
      params.set(name, String(name.startsWith('price') ? Math.round(number * 100) : number));
    } else params.set(name, values[0]!);
  }
  if (!chosen) return undefined;
  if (page.cursor) params.set('cursor', page.cursor);
  return `/api/products/search?${params}`;
}

/**
 * The search API's call for a listing's total and facet counts (the catalogue's facet panel asks
 * it with `limit=1` while no facet is chosen), spelled as the api client spells it.
 */
export function searchSummaryOf(page: Page, search: URLSearchParams): string | null {
  if (page.kind !== 'search') return null;
  // A faceted search's list comes from the search API, with its counts.
  if (facetedSearchOf(page, search) !== undefined) return null;
  const params = new URLSearchParams();
  if (page.category) params.set('category', page.category.slug);
  const q = search.get('q');
  if (q) params.set('q', q);
  if (search.get('available') === '1') params.set('hideSold', 'true');
  params.set('limit', '1');
  return `/api/products/search?${params}`;
}

/**
 * A product page's largest paint is its picture, which the catalogue only asks for once it has
 * rendered; the server knows it already (it read the product for the head).
 */
export function pictureHint(data: HeadPageData): string {
  const product = data && 'product' in data ? data.product : null;
  const first = product?.pictures?.[0];
  const avif = first?.variants.filter((variant) => variant.format === 'avif') ?? [];
  if (avif.length === 0 || !avif.every((variant) => /^\/(?!\/)/.test(variant.url))) return imageHint(product?.thumbnailUrl);
  // An uploaded first picture: the page's <picture> takes its AVIF at the gallery's width, so that is what to fetch early.
  const srcset = avif.map((variant) => `${variant.url} ${variant.width}w`).join(', ');
  return `<link rel="preload" as="image" fetchpriority="high" type="image/avif" imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(GALLERY_MAIN_SIZES)}">`;
}

/** A high-priority image preload for a same-origin path or an http(s) URL; nothing else. */
export function imageHint(picture: string | null | undefined): string {
  if (!picture || !/^(\/(?!\/)|https?:\/\/)/.test(picture)) return '';
  return `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(picture)}">`;
}
