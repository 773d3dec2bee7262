import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REACT_ROUTER_SUBSET } from './rspack-config';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const APP_SOURCES = ['shell', 'mf-catalog', 'mf-cart-checkout', 'mf-account', 'mf-admin', 'packages/state'].map((dir) =>
  join(ROOT, dir, 'src'),
);
const ROUTER_IMPORT = /import\s*(type\s*)?\{([^}]*)\}\s*from\s*['"](react-router|react-router-dom)['"]/g;

async function subsetNames(): Promise<string[]> {
  const text = await readFile(REACT_ROUTER_SUBSET, 'utf8');
  const list = /export\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The value names (not types) the apps' shipped code imports from react-router(-dom). */
async function importedRouterNames(): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  for (const dir of APP_SOURCES) {
    for (const file of await sourceFiles(dir)) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(ROUTER_IMPORT)) {
        if (match[1]) continue; // `import type { … }` is erased
        for (const part of match[2]!.split(',')) {
          const name = part.trim();
          if (!name || name.startsWith('type ')) continue;
          const imported = name.split(/\s+as\s+/)[0]!.trim();
          used.set(imported, [...(used.get(imported) ?? []), relative(ROOT, file)]);
        }
      }
    }
  }
  return used;
}

describe('the shared react-router subset', () => {
  it('names every react-router export the apps use, since the shell provides only these to all remotes', async () => {
    const subset = new Set(await subsetNames());
    const used = await importedRouterNames();
    expect(used.size).toBeGreaterThan(5); // the scan finds the apps' imports
    const missing = [...used].filter(([name]) => !subset.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, 'add these to packages/web-server/src/react-router-subset.js').toEqual([]);
  });

  it('names only exports react-router really has', async () => {
    const require = createRequire(join(ROOT, 'shell', 'package.json'));
    const reactRouter = (await import(require.resolve('react-router'))) as Record<string, unknown>;
    for (const name of await subsetNames()) expect(reactRouter[name], name).toBeDefined();
  });
});
