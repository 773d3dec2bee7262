import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from './cli';
import { RegistryError } from './errors';
import { readSingletons } from './singletons';
import { publish, removeTemporaryFolders, tempStore } from './test-helpers';

afterAll(removeTemporaryFolders);

const ROOT = resolve(import.meta.dirname, '../../..');

it('the commands promote, list, roll back; malformed input is refused with the registry unchanged', async () => {
  const store = await tempStore();
  const shell = readSingletons(join(ROOT, 'shell'));
  const v1 = await publish(store, 'mf-catalog', '1.0.0', 'one', shell);
  const v2 = await publish(store, 'mf-catalog', '1.1.0', 'two', shell);
  const env = { REMOTES_REGISTRY: store.root };
  const lines: string[] = [];
  const run = (...argv: string[]) => main(argv, env, (line) => lines.push(line));

  await run('promote', 'mf-catalog', '1.0.0');
  await run('promote', 'mf-catalog', '1.1.0', '--canary', '10');
  await run('releases');
  expect(lines.at(-1)).toMatch(
    new RegExp(`production \\(revision 2\\)[\\s\\S]*live   ${v1.id}[\\s\\S]*canary ${v2.id}  commit abc1234  10%`),
  );

  const before = JSON.stringify(await store.read('production'));
  const refusals: [string[], RegExp][] = [
    [['promote', 'mf-catalog'], /expected <remote> <version>; usage: npm run promote/],
    [['promote', 'mf-catalog', '1.1.0', 'extra'], /expected <remote> <version>/],
    [['promote', 'mf-catalog', '1.1.0', '--canary'], /--canary needs a value/],
    [['promote', 'mf-catalog', '1.1.0', '--canary', '150'], /invalid canary share "150"/],
    [['promote', 'mf-catalog', '1.1.0', '--force'], /unknown option --force/],
    [['promote', 'mf-catalog', '1.1.0', '--env', 'Prod!'], /invalid environment "Prod!"/],
    [['promote', 'mf-nope', '1.1.0'], /unknown remote "mf-nope"/],
    [['promote', 'mf-catalog', '7.0.0'], /mf-catalog has no release 7\.0\.0/],
    [['rollback', 'mf-catalog', '--canary=yes'], /--canary takes no value/],
    [['rollback'], /expected <remote>/],
    [['release', 'shell'], /unknown remote "shell"/],
    [['deploy', 'mf-catalog'], /unknown command "deploy"/],
  ];
  for (const [argv, message] of refusals) {
    const error = await run(...argv).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, argv.join(' ')).toBeInstanceOf(RegistryError);
    expect((error as Error).message).toMatch(message);
  }
  expect(JSON.stringify(await store.read('production'))).toBe(before);

  await run('promote', 'mf-catalog', '1.1.0', '--env', 'staging');
  await run('rollback', 'mf-catalog', '--canary');
  expect((await store.read('production')).remotes['mf-catalog']!.canary).toBeNull();
  await run('promote', 'mf-catalog', '1.1.0');
  await run('rollback', 'mf-catalog');
  expect(lines.at(-1)).toBe(`mf-catalog: ${v2.id} → ${v1.id} in production`);
  expect((await store.read('staging')).remotes['mf-catalog']!.live!.release).toBe(v2.id);
});
