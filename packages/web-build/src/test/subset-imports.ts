import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// For the tests of the shared subsets (react-router-subset.js, nanostores-subset.js): the names a
// subset file exports, and the names the apps' shipped code imports from a package.

export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

const APP_SOURCES = ['shell', 'mf-catalog', 'mf-cart-checkout', 'mf-account', 'mf-admin', 'packages/state'].map((dir) =>
  join(ROOT, dir, 'src'),
);

/** The names in a subset file's `export { … } from`. */
export async function subsetNames(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  const list = /export\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The apps' shipped source files: no tests, no test helpers. */
export async function appSourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of APP_SOURCES) {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      if (relative(dir, entry.parentPath).split('/').includes('test')) continue;
      files.push(join(entry.parentPath, entry.name));
    }
  }
  return files;
}

/** The value names (not types) these files import from any of `packages`, with the files that import each. */
export async function importedNames(files: string[], packages: string[]): Promise<Map<string, string[]>> {
  const from = packages.map((name) => name.replace(/[/\\^$*+?.()|[\]{}-]/g, '\\$&')).join('|');
  const pattern = new RegExp(`import\\s*(type\\s*)?\\{([^}]*)\\}\\s*from\\s*['"](?:${from})['"]`, 'g');
  const used = new Map<string, string[]>();
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      if (match[1]) continue; // `import type { … }` is erased
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
