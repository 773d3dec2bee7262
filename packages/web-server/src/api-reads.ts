import type { HeadProduct, PageData } from './head';
import { TtlCache } from './ttl-cache';

type Env = Record<string, string | undefined>;

export interface ApiReadsOptions {
  apiUrl: string;
  /** How long a page's head may wait for the API before the generic head goes out. */
  timeoutMs: number;
  /** How long an answer is reused, like the API's own catalogue cache. */
  ttlMs: number;
  maxEntries: number;
}

export function apiReadsOptions(apiUrl: string, env: Env): ApiReadsOptions {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  return {
    apiUrl,
    timeoutMs: number('HEAD_API_TIMEOUT_MS', 300),
    ttlMs: number('HEAD_CACHE_TTL_MS', 30_000),
    maxEntries: number('HEAD_CACHE_MAX_ENTRIES', 2000),
  };
}

export interface SitemapEntryPage {
  data: { id: string; lastModified: string }[];
  cursor: string | null;
  isLastPage: boolean;
}

/**
 * What the shell's server reads from the API (straight, not through its own /api proxy): one
 * product for a page's head, and the product ids for the sitemap. Answers are cached briefly;
 * a page's read is bounded by a short time-out.
 */
export class ApiReads {
  private readonly products: TtlCache<PageData>;
  private readonly listingPages: TtlCache<unknown>;

  constructor(private readonly options: ApiReadsOptions) {
    this.products = new TtlCache<PageData>(options);
    this.listingPages = new TtlCache<unknown>(options);
  }

  /**
   * A listing's page as the API answers it (`apiPath` as the catalogue asks for it; `fresh` as for
   * `product`), for the
   * page's server render and its first picture's hint; null on failure or no answer in time (the
   * page then renders in the browser).
   */
  listingPage(apiPath: string, fresh = false): Promise<unknown> {
    const read = async () => {
      const response = await fetch(`${this.options.apiUrl}${apiPath}`, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`GET ${apiPath} answered ${response.status}`);
      return (await response.json()) as unknown;
    };
    const key = `page:${apiPath}`;
    return this.bounded(fresh ? this.listingPages.reload(key, read) : this.listingPages.getOrLoad(key, read));
  }

  /**
   * The picture of a listing's first product (`apiPath` as the catalogue asks for it, e.g.
   * `/api/products?filterType=yachts`): on a phone the page's largest paint, which the server can
   * hint before the catalogue has rendered. `null` for an empty listing, a failure or no answer
   * in time (then the page goes out without that hint).
   */
  async firstPicture(apiPath: string): Promise<string | null> {
    const page = (await this.listingPage(apiPath)) as { data?: { thumbnailUrl?: unknown }[] } | null;
    const picture = page?.data?.[0]?.thumbnailUrl;
    return typeof picture === 'string' ? picture : null;
  }

  /**
   * `fresh`: read anew (see TtlCache.reload), for a page rendered on the server: its price and
   * stock are what the visitor sees and buys from, as fresh as the API's own (invalidated) cache.
   * `{ product }`, `{ missing: true }` for an id the API does not know (kept like a product, so
   * a crawler guessing ids costs one API request per id and period), or `null` when the API did
   * not answer in time or failed: the page then goes out with the generic head.
   */
  async product(id: string, fresh = false): Promise<PageData> {
    const key = `product:${id.toLowerCase()}`;
    const read = async (): Promise<PageData> => {
      const response = await fetch(`${this.options.apiUrl}/api/products/${encodeURIComponent(id)}`, {
        headers: { accept: 'application/json' },
      });
      if (response.status === 404) return { missing: true };
      if (!response.ok) throw new Error(`GET /api/products/:id answered ${response.status}`);
      return { product: (await response.json()) as HeadProduct };
    };
    return this.bounded(fresh ? this.products.reload(key, read) : this.products.getOrLoad(key, read));
  }

  /** The load's answer, or null on failure or after the time-out. */
  private async bounded<T>(load: Promise<T>): Promise<T | null> {
    // The load goes on (and fills the cache for the next visitor); this page waits no longer.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.options.timeoutMs);
    });
    try {
      return await Promise.race([load.catch(() => null), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Where each sitemap file starts (see the API's /api/products/sitemap/pages); uncached, sitemap.ts caches the XML. */
  sitemapStarts(size: number): Promise<{ total: number; starts: (string | null)[] }> {
    return this.getJson(`/api/products/sitemap/pages?size=${size}`) as Promise<{ total: number; starts: (string | null)[] }>;
  }

  /** Every builder with boats listed (GET /api/products/search/builders); uncached, sitemap.ts caches the XML. */
  async sitemapBuilders(): Promise<string[]> {
    const body = (await this.getJson('/api/products/search/builders')) as { data: { builder: string }[] };
    return body.data.map((row) => row.builder);
  }

  sitemapEntries(after: string | null, limit: number): Promise<SitemapEntryPage> {
    const query = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}) });
    return this.getJson(`/api/products/sitemap?${query}`) as Promise<SitemapEntryPage>;
  }

  private async getJson(path: string): Promise<unknown> {
    const response = await fetch(`${this.options.apiUrl}${path}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return response.json();
  }
}
