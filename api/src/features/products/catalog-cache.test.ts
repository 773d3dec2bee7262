import { describe, expect, it, vi } from 'vitest';
import { CatalogCache } from './catalog-cache.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function listeningCache(ttlMs = 60_000, maxEntries = 100) {
  const cache = new CatalogCache({ ttlMs, maxEntries });
  cache.resume();
  return cache;
}

describe('CatalogCache', () => {
  it('loads once and then answers from memory', async () => {
    const cache = listeningCache();
    const load = vi.fn(async () => '{"page":1}');
    expect(await cache.getOrLoad('k', load)).toBe('{"page":1}');
    expect(await cache.getOrLoad('k', load)).toBe('{"page":1}');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not store what a read fetched before a clear (a write raced it)', async () => {
    const cache = listeningCache();
    const slow = deferred<string>();
    const before = cache.getOrLoad('k', () => slow.promise);
    cache.clear('update');
    slow.resolve('old');
    expect(await before).toBe('old');
    const load = vi.fn(async () => 'new');
    expect(await cache.getOrLoad('k', load)).toBe('new');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shares one load among concurrent misses of a key, but not across a clear', async () => {
    const cache = listeningCache();
    const first = deferred<string>();
    const load = vi.fn(() => first.promise);
    const a = cache.getOrLoad('k', load);
    const b = cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    cache.clear();
    const after = vi.fn(async () => 'fresh');
    const c = cache.getOrLoad('k', after);
    first.resolve('stale');
    expect([await a, await b, await c]).toEqual(['stale', 'stale', 'fresh']);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('stores neither an undefined answer nor a failed load', async () => {
    const cache = listeningCache();
    const missing = vi.fn(async () => undefined);
    await cache.getOrLoad('k', missing);
    await cache.getOrLoad('k', missing);
    expect(missing).toHaveBeenCalledTimes(2);
    await expect(cache.getOrLoad('e', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.getOrLoad('e', async () => 'ok')).toBe('ok');
  });

  it('is not used before resume nor after suspend, and comes back empty', async () => {
    const cache = new CatalogCache({ ttlMs: 60_000, maxEntries: 100 });
    const load = vi.fn(async () => 'v');
    await cache.getOrLoad('k', load);
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    cache.resume();
    await cache.getOrLoad('k', load);
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(3);
    cache.suspend();
    expect(cache.enabled).toBe(false);
    expect(cache.size).toBe(0);
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('with a TTL of 0 is off for good', async () => {
    const cache = listeningCache(0);
    expect(cache.configured).toBe(false);
    expect(cache.enabled).toBe(false);
    const load = vi.fn(async () => 'v');
    await cache.getOrLoad('k', load);
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries answers, dropping the least recently used', async () => {
    const cache = listeningCache(60_000, 2);
    for (const key of ['a', 'b', 'a', 'c']) await cache.getOrLoad(key, async () => key);
    expect(cache.size).toBe(2);
    const load = vi.fn(async () => 'loaded again');
    expect(await cache.getOrLoad('a', load)).toBe('a');
    expect(await cache.getOrLoad('c', load)).toBe('c');
    expect(load).not.toHaveBeenCalled();
    expect(await cache.getOrLoad('b', load)).toBe('loaded again');
  });

  it('forgets an answer once its TTL has passed', async () => {
    const cache = listeningCache(20);
    await cache.getOrLoad('k', async () => 'old');
    await vi.waitFor(async () => expect(await cache.getOrLoad('k', async () => 'new')).toBe('new'), { timeout: 2_000, interval: 10 });
  });
});
