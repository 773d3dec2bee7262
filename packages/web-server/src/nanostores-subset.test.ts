import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NANOSTORES_SUBSET } from './rspack-config';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const APP_SOURCES = ['shell', 'mf-catalog', 'mf-cart-checkout', 'mf-account', 'mf-admin', 'packages/state'].map((dir) =>
  join(ROOT, dir, 'src'),
);
// Libraries built into the apps that import nanostores themselves (the alias applies to them too).
const LIBRARIES = ['@nanostores/react', '@nanostores/persistent'];
const NANOSTORES_IMPORT = /import\s*(type\s*)?\{([^}]*)\}\s*from\s*['"]nanostores['"]/g;

async function subsetNames(): Promise<string[]> {
  const text = await readFile(NANOSTORES_SUBSET, 'utf8');
  const list = /export\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

async function shippedFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of APP_SOURCES) {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    for (const entry of entries) {
      if (entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.parentPath.includes('/test')) {
        files.push(join(entry.parentPath, entry.name));
      }
    }
  }
  const require = createRequire(join(ROOT, 'packages', 'state', 'package.json'));
  for (const library of LIBRARIES) files.push(require.resolve(library));
  return files;
}

/** The value names (not types) the apps' shipped code and its libraries import from nanostores. */
async function importedNames(): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  for (const file of await shippedFiles()) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(NANOSTORES_IMPORT)) {
      if (match[1]) continue;
      for (const part of match[2]!.split(',')) {
        const name = part.trim();
        if (!name || name.startsWith('type ')) continue;
        const imported = name.split(/\s+as\s+/)[0]!.trim();
        used.set(imported, [...(used.get(imported) ?? []), relative(ROOT, file)]);
      }
    }
  }
  return used;
}

describe('the shared nanostores subset', () => {
  it('names every nanostores export the apps and their bundled libraries use, since the shell provides only these', async () => {
    const subset = new Set(await subsetNames());
    const used = await importedNames();
    // The scan finds the apps' imports and the libraries' (useStore needs listenKeys; persistent needs map).
    expect([...used.keys()]).toEqual(expect.arrayContaining(['atom', 'computed', 'listenKeys', 'map']));
    const missing = [...used].filter(([name]) => !subset.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing, 'add these to packages/web-server/src/nanostores-subset.js').toEqual([]);
  });

  it('names only exports nanostores really has', async () => {
    const nanostores = (await import('nanostores')) as Record<string, unknown>;
    for (const name of await subsetNames()) expect(nanostores[name], name).toBeTypeOf('function');
  });
});
