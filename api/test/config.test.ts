import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('loadConfig: TRUST_PROXY', () => {
  it('defaults to the loopback addresses', () => {
    expect(loadConfig({}).trustProxy).toEqual(['127.0.0.1', '::1']);
  });

  it('reads addresses, CIDR ranges and proxy-addr range names; "none" trusts no one', () => {
    expect(loadConfig({ TRUST_PROXY: '172.30.80.10, 10.0.0.0/8,fd00::/8, loopback' }).trustProxy).toEqual([
      '172.30.80.10',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'none' }).trustProxy).toEqual([]);
  });

  it('refuses "trust everyone" and anything that is not an address', () => {
    for (const value of ['true', '*', 'proxy.internal', '10.0.0.1/abc']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('loadConfig: catalogue cache', () => {
  it('is on with a 60 s TTL by default; CATALOG_CACHE_TTL_MS=0 turns it off', () => {
    expect(loadConfig({}).catalogCache).toEqual({ ttlMs: 60_000, maxEntries: 1000 });
    expect(loadConfig({ CATALOG_CACHE_TTL_MS: '0', CATALOG_CACHE_MAX_ENTRIES: '50' }).catalogCache).toEqual({ ttlMs: 0, maxEntries: 50 });
    expect(() => loadConfig({ CATALOG_CACHE_TTL_MS: '-1' })).toThrow(/CATALOG_CACHE_TTL_MS/);
  });
});
