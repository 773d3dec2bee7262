import { describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('shares one load among concurrent misses and serves it until the time is up', async () => {
    let time = 10_000;
    const cache = new TtlCache<string>({ ttlMs: 1000, maxEntries: 10 }, () => time);
    const load = vi.fn(async () => 'page');
    await Promise.all([cache.getOrLoad('a', load), cache.getOrLoad('a', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    time = 10_999;
    await cache.getOrLoad('a', load);
    expect(load).toHaveBeenCalledTimes(1);
    time = 11_001;
    await cache.getOrLoad('a', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps no failed load, and drops the least recently used key past maxEntries', async () => {
    const cache = new TtlCache<string | null>({ ttlMs: 60_000, maxEntries: 2 });
    await expect(cache.getOrLoad('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.getOrLoad('bad', async () => 'up')).toBe('up');
    await cache.getOrLoad('b', async () => null);
    await cache.getOrLoad('bad', async () => 'not asked');
    await cache.getOrLoad('c', async () => 'c');
    expect(cache.size).toBe(2);
    expect(await cache.getOrLoad('b', async () => 'reloaded')).toBe('reloaded');
    expect(await cache.getOrLoad('c', async () => 'not asked')).toBe('c');
  });

  it('caches nothing with ttlMs 0', async () => {
    const cache = new TtlCache<number>({ ttlMs: 0, maxEntries: 10 });
    let calls = 0;
    await cache.getOrLoad('a', async () => ++calls);
    expect(await cache.getOrLoad('a', async () => ++calls)).toBe(2);
    expect(cache.size).toBe(0);
  });
});
