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

describe('loadConfig: database faults and load shedding', () => {
  it('gives up on the database within seconds by default', () => {
    const config = loadConfig({});
    expect(config.database).toEqual({
      poolSize: 10,
      connectTimeoutMs: 2_000,
      statementTimeoutMs: 5_000,
      maxWaiting: 100,
      retryAfterSeconds: 5,
      heartbeatMs: 5_000,
    });
    expect(config.loadShedding).toEqual({ maxEventLoopDelayMs: 1_000, maxEventLoopUtilization: 0, retryAfterSeconds: 10 });
    expect(config.housekeeping).toEqual({ sessionGraceDays: 7, paymentEventRetentionDays: 30 });
  });

  it('reads each setting from the environment', () => {
    const config = loadConfig({
      DATABASE_POOL_SIZE: '20',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_MAX_WAITING: '0',
      DATABASE_RETRY_AFTER_SECONDS: '2',
      DATABASE_HEARTBEAT_MS: '1000',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      MAX_EVENT_LOOP_UTILIZATION: '0.95',
      LOAD_SHEDDING_RETRY_AFTER_SECONDS: '3',
      PURGE_SESSIONS_AFTER_DAYS: '1',
      PURGE_PAYMENT_EVENTS_AFTER_DAYS: '90',
    });
    expect(config.database).toEqual({
      poolSize: 20,
      connectTimeoutMs: 1_500,
      statementTimeoutMs: 0,
      maxWaiting: 0,
      retryAfterSeconds: 2,
      heartbeatMs: 1_000,
    });
    expect(config.loadShedding).toEqual({ maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0.95, retryAfterSeconds: 3 });
    expect(config.housekeeping).toEqual({ sessionGraceDays: 1, paymentEventRetentionDays: 90 });
  });

  it('refuses a utilization outside 0..1 and a timeout that is not a whole number', () => {
    expect(() => loadConfig({ MAX_EVENT_LOOP_UTILIZATION: '95' })).toThrow('MAX_EVENT_LOOP_UTILIZATION must be a number from 0 to 1, got "95"');
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '5s' })).toThrow('DATABASE_STATEMENT_TIMEOUT_MS must be a non-negative integer');
  });
});
