import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NANOSTORES_SUBSET } from './rspack-config';
import { ROOT, appSourceFiles, importedNames, subsetNames } from './test/subset-imports';

// Libraries built into the apps that import nanostores themselves (the alias applies to them too).
const LIBRARIES = ['@nanostores/react', '@nanostores/persistent'];

async function shippedFiles(): Promise<string[]> {
  const require = createRequire(join(ROOT, 'packages', 'state', 'package.json'));
  return [...(await appSourceFiles()), ...LIBRARIES.map((library) => require.resolve(library))];
}

describe('the shared nanostores subset', () => {
  it('names every nanostores export the apps and their bundled libraries use, since the shell provides only these', async () => {
    const subset = new Set(await subsetNames(NANOSTORES_SUBSET));
    const used = await importedNames(await shippedFiles(), ['nanostores']);
    // The scan finds the apps' imports and the libraries' (useStore needs listenKeys; persistent needs map).
    expect([...used.keys()]).toEqual(expect.arrayContaining(['atom', 'computed', 'listenKeys', 'map']));
    const missing = [...used].filter(([name]) => !subset.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, 'add these to packages/web-server/src/nanostores-subset.js').toEqual([]);
  });

  it('names only exports nanostores really has', async () => {
    const nanostores = (await import('nanostores')) as Record<string, unknown>;
    for (const name of await subsetNames(NANOSTORES_SUBSET)) expect(nanostores[name], name).toBeTypeOf('function');
  });
});
