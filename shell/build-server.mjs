#!/usr/bin/env node
// The shell's server as plain JavaScript: serve.ts and the workspace packages it runs
// (@boatshop/web-server, release-registry, web-shared, remotes, contract) bundled by esbuild into
// server/dist/serve.js, so a replica starts with `node server/dist/serve.js` and compiles nothing
// at start. Packages from npm stay outside the bundle and load from node_modules as before; one a
// workspace package resolves to its own nested copy (packages/web-server/node_modules/…) is
// imported by its path relative to the bundle, so every import reaches the same file it reaches
// when the TypeScript runs. The server render imports its shared modules by name at run time
// (SERVER_SHARED_MODULES); the workspace ones among them (@boatshop/state) are bundled too, as
// packages in server/dist/node_modules, where Node.js finds them from the bundle first.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SHELL = dirname(fileURLToPath(import.meta.url));
const ROOT = join(SHELL, '..');
export const SERVER_BUNDLE = join(SHELL, 'server', 'dist', 'serve.js');
const OUT_DIR = dirname(SERVER_BUNDLE);

/** Bare imports of npm packages stay imports; @boatshop/* and relative files go into the bundle. */
function npmPackagesOutside(outDir) {
  return {
    name: 'npm-packages-outside',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.plain || args.path.startsWith('@boatshop/') || args.path.startsWith('node:')) return undefined;
        const resolve = (resolveDir) => esbuild.resolve(args.path, { kind: args.kind, resolveDir, pluginData: { plain: true } });
        const fromImporter = await resolve(args.resolveDir);
        if (fromImporter.errors.length > 0 || fromImporter.external) return { path: args.path, external: true };
        const fromBundle = await resolve(outDir);
        if (fromBundle.errors.length === 0 && fromBundle.path === fromImporter.path) return { path: args.path, external: true };
        const path = relative(outDir, fromImporter.path).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The export conditions Node.js uses; the contract then comes from its TypeScript sources.
  conditions: ['import', 'node', 'default'],
  sourcemap: true,
  logLevel: 'warning',
};

/** SERVER_SHARED_MODULES, read from its TypeScript source. */
async function sharedModules() {
  const { outputFiles } = await build({
    ...common,
    entryPoints: [join(ROOT, 'packages', 'web-shared', 'src', 'server-pages.ts')],
    write: false,
    sourcemap: false,
    packages: 'external',
  });
  const source = Buffer.from(outputFiles[0].contents).toString('base64');
  return (await import(`data:text/javascript;base64,${source}`)).SERVER_SHARED_MODULES;
}

export async function buildServer() {
  // Afresh, so nothing of an earlier build lingers; the output folders exist before the imports
  // are resolved from them below.
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const server = await build({
    ...common,
    entryPoints: [join(SHELL, 'serve.ts')],
    outfile: SERVER_BUNDLE,
    // server-render.ts imports the shared React modules by a computed name at run time, on purpose.
    logOverride: { 'unsupported-dynamic-import': 'silent' },
    plugins: [npmPackagesOutside(OUT_DIR)],
  });
  if (server.errors.length > 0) process.exit(1);
  for (const name of (await sharedModules()).filter((id) => id.startsWith('@boatshop/'))) {
    const dir = join(OUT_DIR, 'node_modules', ...name.split('/'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module', main: './index.js' }, null, 2)}\n`);
    const shared = await build({
      ...common,
      // The package's own entry, as its package.json names it for Node.js.
      entryPoints: [name],
      absWorkingDir: ROOT,
      outfile: join(dir, 'index.js'),
      plugins: [npmPackagesOutside(dir)],
    });
    if (shared.errors.length > 0) process.exit(1);
  }
  return SERVER_BUNDLE;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`shell server built: ${relative(process.cwd(), await buildServer())}`);
}
