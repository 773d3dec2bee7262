import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REACT_ROUTER_SUBSET } from './rspack-config';
import { ROOT, appSourceFiles, importedNames, packageUses, subsetNames } from './test/subset-imports';

const ROUTER = ['react-router', 'react-router-dom'];

describe('the shared react-router subset', () => {
  it('names every react-router export the apps use, since the shell provides only these to all remotes', async () => {
    const subset = new Set(await subsetNames(REACT_ROUTER_SUBSET));
    const used = await importedNames(await appSourceFiles(), ROUTER);
    expect(used.names.size).toBeGreaterThan(5); // the scan finds the apps' imports
    expect(used.unlisted, 'name the exports: the subset can only be checked against named imports').toEqual([]);
    const missing = [...used.names].filter(([name]) => !subset.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, 'add these to packages/web-server/src/react-router-subset.js').toEqual([]);
  });

  it('names only exports react-router really has', async () => {
    const require = createRequire(join(ROOT, 'shell', 'package.json'));
    const reactRouter = (await import(require.resolve('react-router'))) as Record<string, unknown>;
    for (const name of await subsetNames(REACT_ROUTER_SUBSET)) expect(reactRouter[name], name).toBeDefined();
  });
});

describe('the import scan behind it', () => {
  const scan = (text: string) => packageUses('app.tsx', text, ROUTER);

  it('counts named imports and re-exports under their original names, and skips type-only ones', () => {
    const uses = scan(`
      import { Link, useParams as params, type NavigateFunction } from 'react-router-dom';
      import type { Location } from 'react-router';
      export { Outlet as Slot } from 'react-router';
      export type { To } from 'react-router';
      import { atom } from 'nanostores';
    `);
    expect([...uses.names.keys()].sort()).toEqual(['Link', 'Outlet', 'useParams']);
    expect(uses.unlisted).toEqual([]);
  });

  it('reports the uses whose names it cannot list: import *, default imports, export *, import() and require()', () => {
    const uses = scan(`
      import * as Router from 'react-router';
      import Default from 'react-router-dom';
      export * from 'react-router-dom';
      export * as R from 'react-router';
      const lazy = () => import('react-router');
      const old = require('react-router-dom');
    `);
    expect(uses.unlisted).toEqual([
      'app.tsx: import * from react-router',
      'app.tsx: default import from react-router-dom',
      'app.tsx: export * from react-router-dom',
      'app.tsx: export * from react-router',
      "app.tsx: import('react-router')",
      "app.tsx: require('react-router-dom')",
    ]);
  });
});
