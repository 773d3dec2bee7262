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

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
