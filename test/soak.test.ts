import { describe, expect, it } from 'vitest';
import { classifyRepeats } from '../scripts/soak/books';
import { classify } from '../scripts/soak/client';
import {
  parseFaults,
  parsePgCluster,
  pgClusterPort,
  pgIsReadyTarget,
  redisCliTarget,
  type FaultKind,
  type FaultRecord,
} from '../scripts/soak/faults';
import { trafficChecks } from '../scripts/soak/report';
import { percentile, SoakStats } from '../scripts/soak/stats';
import type { SoakWorld } from '../scripts/soak/users';

const world = { problems: [] } as unknown as SoakWorld;

describe("the soak's figures", () => {
  it('takes percentiles by nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('tells a clean 502/503/504 from other failures', () => {
    expect(classify(201, [201, 409])).toBe('ok');
    expect(classify(409, [201])).toBe('unexpected-4xx');
    expect(classify(502, [200])).toBe('clean-5xx');
    expect(classify(503, [200])).toBe('clean-5xx');
    expect(classify(500, [200])).toBe('other-5xx');
    expect(classify(null, [200])).toBe('network');
  });

  it('reads SOAK_FAULTS and refuses an unknown fault', () => {
    expect(parseFaults(undefined)).toEqual(['api', 'shell', 'redis', 'postgres']);
    expect(parseFaults('none')).toEqual([]);
    expect(parseFaults('api, redis')).toEqual(['api', 'redis']);
    expect(() => parseFaults('api,disk')).toThrow(/unknown disk/);
  });

  it("restarts the soak's own Redis and PostgreSQL, not the ones on the default ports", () => {
    expect(redisCliTarget('redis://127.0.0.1:6380/7')).toEqual(['-h', '127.0.0.1', '-p', '6380']);
    expect(redisCliTarget('redis://localhost')).toEqual(['-h', 'localhost', '-p', '6379']);
    expect(pgIsReadyTarget('postgres://postgres@127.0.0.1:5433/h_soak')).toEqual(['-h', '127.0.0.1', '-p', '5433']);
    expect(parsePgCluster('15 soak')).toEqual(['15', 'soak']);
    expect(parsePgCluster('15/main')).toEqual(['15', 'main']);
    expect(() => parsePgCluster('soak')).toThrow(/SOAK_PG_CLUSTER/);
    const listed =
      '15  main    5432 online postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log\n15  soak    5433 online postgres /var/lib/postgresql/15/soak /var/log/x.log\n';
    expect(pgClusterPort(listed, '15', 'soak')).toBe(5433);
    expect(pgClusterPort(listed, '16', 'main')).toBeNull();
  });
});

describe("the soak's verdict on traffic", () => {
  const stats = (failed: number, total: number, kind: 502 | 500 = 502) => {
    const s = new SoakStats();
    for (let n = 0; n < total; n++) {
      const bad = n < failed;
      s.record({ route: 'GET /x', status: bad ? kind : 200, outcome: bad ? classify(kind, [200]) : 'ok', ms: 1, at: 0 });
      s.requestDone('GET /x', !bad);
    }
    return s;
  };
  const verdict = (s: SoakStats) => Object.fromEntries(trafficChecks(s, world, [], []).map((check) => [check.name, check.ok]));

  it('passes 0.5 % of requests failing with a clean 502, not more', () => {
    expect(verdict(stats(5, 1000))['failed requests ≤ 0.5 %']).toBe(true);
    expect(verdict(stats(6, 1000))['failed requests ≤ 0.5 %']).toBe(false);
  });

  it('fails on a single 500, however few', () => {
    expect(verdict(stats(1, 1000, 500))['every failed attempt a clean 502/503/504 or a cut connection']).toBe(false);
    expect(verdict(stats(1, 1000, 502))['every failed attempt a clean 502/503/504 or a cut connection']).toBe(true);
  });

  it('fails when a kind of fault was never injected, or a fault did not recover', () => {
    const name = 'every kind of fault injected, and each recovered';
    const ok = (records: FaultRecord[], kinds: FaultKind[]) =>
      trafficChecks(stats(0, 10), world, records, kinds).find((c) => c.name === name)?.ok;
    const redis = (downMs: number | null): FaultRecord => ({ kind: 'redis', target: 'redis', at: 0, downMs });
    expect(ok([redis(3000)], ['redis'])).toBe(true);
    expect(ok([redis(null)], ['redis'])).toBe(false);
    expect(ok([redis(3000)], ['redis', 'postgres'])).toBe(false);
  });
});

describe("the soak's e-mail check", () => {
  const kill = Date.parse('2026-11-26T09:50:46Z');
  const at = (offsetS: number) => kill + offsetS * 1000;
  it('passes a second copy only when the first left shortly before a SIGKILL and the second after it', () => {
    const copies = new Map([
      ['<outbox-once@boatshop>', [at(-3)]],
      ['<outbox-killed@boatshop>', [at(140), at(-2)]],
      ['<outbox-no-kill@boatshop>', [at(-200), at(-190)]],
      ['<outbox-both-before@boatshop>', [at(-5), at(-4)]],
      ['<outbox-thrice@boatshop>', [at(-2), at(100), at(101)]],
    ]);
    expect(classifyRepeats(copies, [kill])).toEqual({
      afterKill: ['<outbox-killed@boatshop>'],
      doubled: ['<outbox-no-kill@boatshop>', '<outbox-both-before@boatshop>', '<outbox-thrice@boatshop>'],
    });
    expect(classifyRepeats(copies, []).afterKill).toEqual([]);
  });
});
