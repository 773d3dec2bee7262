import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { canaryVerdict } from './canary';
import { mergeTallies, tallyOf } from './counts';
import { RegistryError } from './errors';
import { describe, promote } from './registry';
import { publish, removeTemporaryFolders, SHELL, STORE_KINDS, tempStore } from './test-helpers';

afterAll(removeTemporaryFolders);

const env = 'production';

it.each(STORE_KINDS)(
  'two replicas report; npm run releases shows the combined loads, failures and rate per release (%s store)',
  async (kind) => {
    const store = await tempStore(kind);
    const v1 = await publish(store, 'mf-catalog', '1.0.0');
    const v2 = await publish(store, 'mf-catalog', '1.1.0');
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.0.0', shellSingletons: SHELL });
    await promote(store, { environment: env, remote: 'mf-catalog', version: '1.1.0', canary: 20, shellSingletons: SHELL });

    await store.writeCounts(env, 'shell-a', {
      'mf-catalog': { [v1.id]: { served: 70, failures: 1 }, [v2.id]: { served: 12, failures: 3 } },
    });
    await store.writeCounts(env, 'shell-b', {
      'mf-catalog': { [v1.id]: { served: 30, failures: 0 }, [v2.id]: { served: 13, failures: 3 } },
    });
    // A replica rewrites its own file with its cumulative counts: the newer file replaces, never adds.
    await store.writeCounts(env, 'shell-b', {
      'mf-catalog': { [v1.id]: { served: 30, failures: 1 }, [v2.id]: { served: 14, failures: 4 } },
    });
    await store.writeCounts('staging', 'shell-c', { 'mf-catalog': { [v1.id]: { served: 999, failures: 999 } } });

    const counts = await store.readCounts(env);
    expect(tallyOf(counts, 'mf-catalog', v1.id)).toEqual({ served: 100, failures: 2 });
    expect(tallyOf(counts, 'mf-catalog', v2.id)).toEqual({ served: 26, failures: 7 });
    expect(tallyOf(await store.readCounts(env, { except: 'shell-a' }), 'mf-catalog', v2.id)).toEqual({ served: 14, failures: 4 });

    const text = await describe(store, [env]);
    expect(text).toMatch(new RegExp(`live   ${v1.id} .* loads 100, failures 2 \\(2\\.0%\\)`));
    expect(text).toMatch(new RegExp(`canary ${v2.id} .* loads 26, failures 7 \\(26\\.9%\\)`));

    // Neither replica alone has the evidence to withdraw the canary; together they do.
    const alone = (replica: string) => store.readCounts(env, { except: replica === 'shell-a' ? 'shell-b' : 'shell-a' });
    for (const replica of ['shell-a', 'shell-b']) {
      const own = await alone(replica);
      expect(canaryVerdict(tallyOf(own, 'mf-catalog', v2.id), tallyOf(own, 'mf-catalog', v1.id)), replica).toBeNull();
    }
    expect(canaryVerdict(tallyOf(counts, 'mf-catalog', v2.id), tallyOf(counts, 'mf-catalog', v1.id))).toMatch(
      /^failure rate 26\.9% \(7 of 26 loads\) against 2\.0%/,
    );
  },
);

it('a stray, malformed or long-forgotten counts file is not counted; replica names are file-name safe', async () => {
  const store = await tempStore();
  await store.writeCounts(env, 'shell-a', { 'mf-catalog': { '1.0.0-0123456789ab': { served: 5, failures: 1 } } });
  const dir = join(store.root, 'counts', env);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'half.json'), '{"schema":1,"tallies":{"mf-catalog":{"1.0.0-0123456789ab":{"served":');
  await writeFile(join(dir, 'negative.json'), JSON.stringify({ schema: 1, tallies: { 'mf-catalog': { x: { served: -5, failures: 0 } } } }));
  await writeFile(join(dir, 'notes.txt'), 'not counts');
  await store.writeCounts(env, 'gone-long-ago', { 'mf-catalog': { '1.0.0-0123456789ab': { served: 1000, failures: 0 } } });
  const old = new Date(Date.now() - 31 * 86_400_000);
  await utimes(join(dir, 'gone-long-ago.json'), old, old);

  expect(await store.readCounts(env)).toEqual({ 'mf-catalog': { '1.0.0-0123456789ab': { served: 5, failures: 1 } } });
  expect(await store.readCounts('staging')).toEqual({});
  for (const name of ['../escape', '', 'a/b', '.hidden']) {
    await expect(store.writeCounts(env, name, {})).rejects.toBeInstanceOf(RegistryError);
  }
});

it('mergeTallies sums per remote and release without changing its inputs', () => {
  const a = { 'mf-catalog': { r1: { served: 1, failures: 0 } } };
  const b = {
    'mf-catalog': { r1: { served: 2, failures: 1 }, r2: { served: 3, failures: 0 } },
    'mf-admin': { r3: { served: 1, failures: 1 } },
  };
  expect(mergeTallies(a, b)).toEqual({
    'mf-catalog': { r1: { served: 3, failures: 1 }, r2: { served: 3, failures: 0 } },
    'mf-admin': { r3: { served: 1, failures: 1 } },
  });
  expect(a['mf-catalog'].r1).toEqual({ served: 1, failures: 0 });
});
