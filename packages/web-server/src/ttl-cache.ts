import { LRUCache } from 'lru-cache';

/**
 * A read-through cache on lru-cache: at most `maxEntries` values, each kept `ttlMs`, the least
 * recently used dropped first; concurrent misses of one key share one load, and a failed load is
 * not kept. What the shell's server reads from the API for a page's head and the sitemap goes
 * through it, so a burst of visitors (or a crawler) costs the API one request per key and period.
 */
export class TtlCache<V> {
  private readonly entries: LRUCache<string, Promise<V>> | null;

  constructor(options: { ttlMs: number; maxEntries: number }, now: () => number = Date.now) {
    this.entries =
      options.ttlMs > 0 ? new LRUCache({ max: options.maxEntries, ttl: options.ttlMs, ttlResolution: 0, perf: { now } }) : null;
  }

  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries?.get(key);
    if (hit) return hit;
    const value = load();
    if (!this.entries) return value;
    this.entries.set(key, value);
    value.catch(() => {
      if (this.entries?.peek(key) === value) this.entries.delete(key);
    });
    return value;
  }

  private readonly loading = new Map<string, Promise<V>>();

  /**
   * Loads anew, whatever is cached (a load already under way for the key is shared), and keeps
   * the answer for `getOrLoad`: for what a visitor sees and acts on (a page rendered on the
   * server), which must be as fresh as the API's own answer.
   */
  reload(key: string, load: () => Promise<V>): Promise<V> {
    const running = this.loading.get(key);
    if (running) return running;
    const value = load();
    this.loading.set(key, value);
    const settled = () => {
      if (this.loading.get(key) === value) this.loading.delete(key);
    };
    value.then((loaded) => {
      settled();
      this.entries?.set(key, Promise.resolve(loaded));
    }, settled);
    return value;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
