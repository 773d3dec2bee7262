import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REMOTE_BUNDLER_RUNTIME } from './rspack-config';
import { ROOT } from './test/subset-imports';

// The byte-saving shortcuts into libraries (docs/adr/0001-shared-bundler-runtime.md,
// docs/adr/0002-react-router-subset.md) hold only for the versions they were written against:
// these tests fail on the upgrade that would break them, before a browser meets it.

const require = createRequire(join(ROOT, 'packages', 'web-server', 'package.json'));

/** A module's shape: each key with the type of its value, one level into objects. */
function shape(value: unknown, depth = 2): unknown {
  if (typeof value !== 'object' || value === null || depth === 0) return typeof value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, shape((value as Record<string, unknown>)[key], depth - 1)]),
  );
}

describe('the copied bundler runtime (remote-bundler-runtime.cjs)', () => {
  it("has the installed @module-federation/webpack-bundler-runtime's exports, federation object and bundler functions", () => {
    const installed = require('@module-federation/webpack-bundler-runtime') as { default: { bundlerRuntime: object } };
    const copy = require(REMOTE_BUNDLER_RUNTIME) as { default: { bundlerRuntime: object } };
    expect(Object.keys(copy).sort()).toEqual(Object.keys(installed).sort());
    // `runtime` is the real @module-federation/runtime in both (the index wraps it in an interop
    // object); the copy leaves out `getSharedFallbackGetter` on purpose: it serves the tree-shaking
    // of shared modules, which the shop does not configure.
    const expected = { ...(shape(installed.default) as Record<string, Record<string, unknown>>) };
    expected.bundlerRuntime = { ...expected.bundlerRuntime, getSharedFallbackGetter: 'undefined' };
    expect({ ...(shape(copy.default) as object), runtime: 'module' }).toEqual({ ...expected, runtime: 'module' });
  });

  it('reaches internal files that the installed package still has, exporting the same functions', () => {
    const attach = require('@module-federation/webpack-bundler-runtime/dist/attachShareScopeMap.cjs') as Record<string, unknown>;
    const init = require('@module-federation/webpack-bundler-runtime/dist/initContainerEntry.cjs') as Record<string, unknown>;
    const installed = require('@module-federation/webpack-bundler-runtime') as {
      default: { attachShareScopeMap: unknown; bundlerRuntime: { initContainerEntry: unknown } };
    };
    expect(attach.attachShareScopeMap).toBeTypeOf('function');
    expect(init.initContainerEntry).toBeTypeOf('function');
    // The package's index uses these very functions: the copy reaches the same code, not a look-alike.
    expect(installed.default.attachShareScopeMap).toBe(attach.attachShareScopeMap);
    expect(installed.default.bundlerRuntime.initContainerEntry).toBe(init.initContainerEntry);
  });
});

/** The installed version of a package, read from its folder (some packages do not export package.json). */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Every package.json of the workspace, with its folder. */
function workspaceManifests(): { folder: string; json: Record<string, Record<string, string> | undefined> }[] {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  return ['.', ...root.workspaces].map((folder) => ({
    folder,
    json: JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')),
  }));
}

describe('the versions the shortcuts were written against', () => {
  it('pins @module-federation/* and react-router(-dom) exactly, at the installed version, wherever they are named', () => {
    const guarded = /^(@module-federation\/|react-router$|react-router-dom$)/;
    const problems: string[] = [];
    let seen = 0;
    for (const { folder, json } of workspaceManifests()) {
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies'] as const) {
        for (const [name, range] of Object.entries(json[field] ?? {})) {
          if (!guarded.test(name)) continue;
          seen += 1;
          const installed = installedVersion(name);
          if (range !== installed)
            problems.push(`${folder}/package.json ${field}: ${name} "${range}" (installed ${installed}): pin it exactly`);
        }
      }
    }
    expect(seen).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
