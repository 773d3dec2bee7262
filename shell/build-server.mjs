#!/usr/bin/env node
// The shell's server as plain JavaScript: serve.ts and the workspace packages it runs
// (@boatshop/web-server, release-registry, web-shared, remotes, contract) bundled by esbuild into
// server/dist/serve.js, so a replica starts with `node server/dist/serve.js` and compiles nothing
// at start. Packages from npm stay outside the bundle and load from node_modules as before; one a
// workspace package resolves to its own nested copy (packages/web-server/node_modules/…) is
// imported by its path relative to the bundle, so every import reaches the same file it reaches
// when the TypeScript runs. Node.js runs the bundle from this folder in the repository or the image.
import { mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SHELL = dirname(fileURLToPath(import.meta.url));
export const SERVER_BUNDLE = join(SHELL, 'server', 'dist', 'serve.js');
const OUT_DIR = dirname(SERVER_BUNDLE);

/** Bare imports of npm packages stay imports; @boatshop/* and relative files go into the bundle. */
const npmPackagesOutside = {
  name: 'npm-packages-outside',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.plain || args.path.startsWith('@boatshop/') || args.path.startsWith('node:')) return undefined;
      const resolve = (resolveDir) => esbuild.resolve(args.path, { kind: args.kind, resolveDir, pluginData: { plain: true } });
      const fromImporter = await resolve(args.resolveDir);
      if (fromImporter.errors.length > 0 || fromImporter.external) return { path: args.path, external: true };
      const fromBundle = await resolve(OUT_DIR);
      if (fromBundle.errors.length === 0 && fromBundle.path === fromImporter.path) return { path: args.path, external: true };
      const path = relative(OUT_DIR, fromImporter.path).split(sep).join('/');
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};

export async function buildServer() {
  // Resolved from the bundle's folder below, so it exists before the first build.
  mkdirSync(OUT_DIR, { recursive: true });
  const result = await build({
    entryPoints: [join(SHELL, 'serve.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The same export conditions Node.js uses, plus the contract's compiled-or-source choice: source.
    conditions: ['import', 'node', 'default'],
    sourcemap: true,
    logLevel: 'warning',
    // server-render.ts imports the shared React modules by a computed name at run time, on purpose.
    logOverride: { 'unsupported-dynamic-import': 'silent' },
    plugins: [npmPackagesOutside],
  });
  if (result.errors.length > 0) process.exit(1);
  return SERVER_BUNDLE;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`shell server built: ${relative(process.cwd(), await buildServer())}`);
}
