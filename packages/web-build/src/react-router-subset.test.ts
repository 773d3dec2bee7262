import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REACT_ROUTER_SUBSET } from './rspack-config';
import { ROOT, appSourceFiles, importedNames, subsetNames } from './test/subset-imports';

describe('the shared react-router subset', () => {
  it('names every react-router export the apps use, since the shell provides only these to all remotes', async () => {
    const subset = new Set(await subsetNames(REACT_ROUTER_SUBSET));
    const used = await importedNames(await appSourceFiles(), ['react-router', 'react-router-dom']);
    expect(used.size).toBeGreaterThan(5); // the scan finds the apps' imports
    const missing = [...used].filter(([name]) => !subset.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, 'add these to packages/web-server/src/react-router-subset.js').toEqual([]);
  });

  it('names only exports react-router really has', async () => {
    const require = createRequire(join(ROOT, 'shell', 'package.json'));
    const reactRouter = (await import(require.resolve('react-router'))) as Record<string, unknown>;
    for (const name of await subsetNames(REACT_ROUTER_SUBSET)) expect(reactRouter[name], name).toBeDefined();
  });
});
