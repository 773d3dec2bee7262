import { LRUCache } from 'lru-cache';

export interface CatalogCacheOptions {
  /** 0 turns the cache off */
  ttlMs: number;
  maxEntries: number;
  /** bound on the summed length of the cached answers (characters); a page of long descriptions is large */
  maxChars?: number;
}

const DEFAULT_MAX_CHARS = 32 * 1024 * 1024;

/**
 * The public catalogue's answers (serialized JSON), kept per process. Correctness does not rest
 * on the TTL: every write to `products` clears the cache, locally at once for the API's own admin
 * writes and on every replica through the `products_changed` notification. So the cache is only
 * used while the notifications are heard (`resume`), and is emptied and off while they are not
 * (`suspend`).
 *
 * A read that started before a clear must not put what it read back after it: each clear starts
 * a new generation, and only a load that began in the current one is stored. Concurrent misses
 * of one key share a single load.
 */
export class CatalogCache {
  private readonly entries: LRUCache<string, string> | null;
  private readonly loading = new Map<string, Promise<string | undefined>>();
  private generation = 0;
  private active = false;

  constructor(options: CatalogCacheOptions) {
    this.entries =
      options.ttlMs > 0
        ? new LRUCache<string, string>({
            max: options.maxEntries,
            ttl: options.ttlMs,
            maxSize: options.maxChars ?? DEFAULT_MAX_CHARS,
            sizeCalculation: (value) => Math.max(1, value.length),
          })
        : null;
  }

  /** Configured on (TTL above 0), whether or not it is in use right now. */
  get configured(): boolean {
    return this.entries !== null;
  }

  /** In use: configured and hearing about every change. */
  get enabled(): boolean {
    return this.entries !== null && this.active;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** Changes are heard from now on; whatever was cached before may have missed some. */
  resume(): void {
    this.clear();
    this.active = true;
  }

  /** Changes may go unheard: stop serving from the cache until `resume`. */
  suspend(): void {
    this.active = false;
    this.clear();
  }

  /**
   * Something in the catalogue changed. `reason` (a notification's payload, say) is not used: it
   * shows in spies and debuggers which change emptied the cache.
   */
  clear(_reason?: string): void {
    this.generation += 1;
    this.loading.clear();
    this.entries?.clear();
  }

  /**
   * The cached answer for `key`, else `load()`'s (stored unless undefined or the catalogue changed
   * meanwhile). When the cache is not in use, just `load()`.
   */
  async getOrLoad(key: string, load: () => Promise<string | undefined>): Promise<string | undefined> {
    if (!this.enabled) return load();
    const cached = this.entries!.get(key);
    if (cached !== undefined) return cached;
    const pending = this.loading.get(key);
    if (pending) return pending;

    const generation = this.generation;
    const promise = load().then(
      (value) => {
        if (this.generation === generation) {
          this.loading.delete(key);
          if (value !== undefined && this.enabled) this.entries!.set(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.generation === generation) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }
}
