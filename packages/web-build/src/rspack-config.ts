import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModuleFederationPlugin as ModuleFederationPluginClass } from '@module-federation/enhanced/rspack';
import type { Compilation, Compiler, Configuration, RuleSetRule, rspack as rspackNamespace } from '@rspack/core';
import { findRemote, portOf, type FrontEndName } from '@boatshop/remotes';
import { remotesBody } from '@boatshop/web-server/remotes';
import { RouteDataError, validateRoutes, type RouteData, type RoutesFile } from '@boatshop/web-shared/route-data';
import { SERVER_PAGES_FILE, SERVER_SHARED_MODULES } from '@boatshop/web-shared/server-pages';
import { SHARED_RUNTIME_GLOBALS, STANDALONE_RUNTIME_FILE } from '@boatshop/web-shared/shared-runtime';
import { StartupHintsPlugin } from './startup-hints';

/**
 * Modules every app shares as singletons (docs/ARCHITECTURE.md), keyed by import request,
 * with the package whose version range applies. Subpaths are not shared unless named.
 */
export const SHARED_SINGLETONS: Readonly<Record<string, string>> = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  'react-router': 'react-router',
  'react-router-dom': 'react-router-dom',
  nanostores: 'nanostores',
  '@nanostores/react': '@nanostores/react',
  '@boatshop/state': '@boatshop/state',
};

// The logo's sail as an inline icon, so no page load ends in a 404 for /favicon.ico.
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Cpath fill='%230b2f4a' d='M15 3V22H5ZM17 7V22H26ZM3 24H29L25 29H7Z'/%3E%3C/svg%3E";

/** Browsers with native ES2022 (class fields, top-level await); swc emits ES5 unless told. */
export const BROWSER_TARGETS = ['chrome >= 111', 'edge >= 111', 'firefox >= 115', 'safari >= 16.4'];

export interface FrontEndConfigOptions {
  /** The app's own rspack and MF plugin, passed in so this helper adds no dependency of its own. */
  bundler: { rspack: typeof rspackNamespace; ModuleFederationPlugin: typeof ModuleFederationPluginClass };
  app: FrontEndName;
  /** The app's folder. */
  dir: string;
  /** Page title of the standalone build. */
  title: string;
  /** `./Name` → source file, for remotes. */
  exposes?: Record<string, string>;
  /**
   * A remote's pages (its src/routes.ts): checked here (valid entries, each module exposed) and
   * written to dist/routes.json (`{ schema: 1, remote, routes }`), which a release records and
   * the shell's server hands to the shell.
   */
  routes?: RouteData;
  /**
   * A remote's server entry, or the shell's frame (docs/server-rendering.md): built for Node.js
   * into dist/server/pages.cjs beside the browser build, with the shared singletons left to the
   * server that renders it.
   */
  serverPages?: string;
  /** MF runtime plugins (file paths), for the shell. */
  runtimePlugins?: string[];
  /** The app's package.json dependencies: the shared modules' required versions. */
  dependencies: Record<string, string>;
}

/** The route data file a remote's build writes beside its mf-manifest.json. */
export const ROUTES_FILE = 'routes.json';

/** A remote's route data as dist/routes.json; refuses (throws) invalid data or a module the remote does not expose. */
export function routesFile(mfName: string, routes: RouteData, exposes: Record<string, string>): RoutesFile {
  const checked = validateRoutes(JSON.parse(JSON.stringify(routes)), mfName);
  const unexposed = checked.filter((route) => route.module !== undefined && !Object.hasOwn(exposes, route.module));
  if (unexposed.length > 0) {
    throw new RouteDataError(unexposed.map((route) => `${mfName}: ${route.path} names ${route.module}, which is not in exposes`));
  }
  return { schema: 1, remote: mfName, routes: checked };
}

/** Emits dist/routes.json (also served by `rspack serve`, so the shell's dev server finds it). */
class RoutesFilePlugin {
  constructor(private readonly file: RoutesFile) {}

  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap('RoutesFilePlugin', (compilation: Compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'RoutesFilePlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(ROUTES_FILE, new compiler.webpack.sources.RawSource(`${JSON.stringify(this.file, null, 2)}\n`));
        },
      );
    });
  }
}

/** The file of react-router-subset.js, which the apps' builds use for react-router(-dom). */
export const REACT_ROUTER_SUBSET = fileURLToPath(new URL('./react-router-subset.js', import.meta.url));

/**
 * `react-router` and `react-router-dom` → the shop's subset of react-router (react-router-subset.js),
 * itself built on react-router's production files in production builds (the package's exports
 * give only its development build, with dev-only checks and warnings).
 */
export function reactRouterAliases(dir: string, production: boolean): Record<string, string> {
  const require = createRequire(join(dir, 'package.json'));
  const root = dirname(require.resolve('react-router/package.json'));
  return {
    'react-router$': REACT_ROUTER_SUBSET,
    'react-router-dom$': REACT_ROUTER_SUBSET,
    '@boatshop/react-router-implementation$': join(root, `dist/${production ? 'production' : 'development'}/index.mjs`),
  };
}

/** The shell's runtime plugin that hands the MF runtime's helper packages to the remotes (shared-runtime.ts). */
export const PROVIDE_RUNTIME_PLUGIN = fileURLToPath(new URL('./provide-runtime-plugin.js', import.meta.url));

/** A remote's `@module-federation/webpack-bundler-runtime`: its own state around the page's copy of the functions. */
export const REMOTE_BUNDLER_RUNTIME = fileURLToPath(new URL('./remote-bundler-runtime.cjs', import.meta.url));

/**
 * The MF runtime in a server build: the shell's frame imports the module that loads remotes in
 * the browser, which never runs on the server (the remote page comes rendered by its own build).
 */
export const SERVER_MF_RUNTIME_STUB = fileURLToPath(new URL('./server-mf-runtime-stub.js', import.meta.url));

/** The bundler runtime's index, which every container's MF glue imports. */
const BUNDLER_RUNTIME_INDEX = /@module-federation[\\/]webpack-bundler-runtime[\\/]dist[\\/]index\.c?js$/;

/** What a remote's standalone page runs first, built without MF into mf-runtime.js. */
export const STANDALONE_RUNTIME_ENTRY = fileURLToPath(new URL('./mf-runtime-standalone.cjs', import.meta.url));

/** The installed @module-federation/enhanced version: the runtime the build embeds (and, in the shell, provides). */
export function moduleFederationVersion(dir: string): string {
  const require = createRequire(join(dir, 'package.json'));
  let folder = dirname(require.resolve('@module-federation/enhanced/rspack'));
  for (;;) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (json.name === '@module-federation/enhanced') return json.version;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error('@module-federation/enhanced/package.json not found');
    folder = parent;
  }
}

/** The installed react-router version: the shared subset is provided as this version. */
export function reactRouterVersion(dir: string): string {
  const require = createRequire(join(dir, 'package.json'));
  return (require('react-router/package.json') as { version: string }).version;
}

/**
 * The rspack configuration of one front end: TypeScript/React through builtin:swc-loader with
 * modern targets, one plain stylesheet per app, content-hashed file names, Module Federation
 * (remotes expose pages with `publicPath: 'auto'`; the shell registers remotes at runtime and
 * serves deep routes from '/'), and a dev server on the app's port with the /api proxy.
 */
export function frontEndConfig(options: FrontEndConfigOptions): Configuration | Configuration[] {
  const { rspack, ModuleFederationPlugin } = options.bundler;
  const isShell = options.app === 'shell';
  // The MF container name: the remote's row in @boatshop/remotes; the shell's is `shell`.
  const mfName = findRemote(options.app)?.mfName ?? 'shell';
  const production = process.env.NODE_ENV === 'production';
  const hash = production ? '.[contenthash:8]' : '';
  const apiUrl = process.env.API_URL || `http://127.0.0.1:${portOf('api')}`;

  // Production builds share one MF runtime per page (shared-runtime.ts): the shell provides it,
  // remotes leave it out and bring a small provider for their standalone page. Development
  // builds keep a runtime each, so `rspack serve` stays one plain compilation.
  const shareRuntime = production;
  const mfVersion = moduleFederationVersion(options.dir);
  const routerVersion = reactRouterVersion(options.dir);
  const shared = Object.fromEntries(
    Object.entries(SHARED_SINGLETONS).map(([request, packageName]) => [
      request,
      {
        singleton: true,
        requiredVersion: options.dependencies[packageName] ?? (false as const),
        // The subset file lives in this package: give it the library's version, not ours.
        ...(packageName.startsWith('react-router') ? { version: routerVersion } : {}),
      },
    ]),
  );

  // Checked before anything is built: a bad route fails the build with the list of problems.
  const routes = !isShell && options.routes ? routesFile(mfName, options.routes, options.exposes ?? {}) : null;

  const standaloneRuntime = shareRuntime && !isShell ? `<script defer src="${STANDALONE_RUNTIME_FILE}"></script>` : '';

  const config: Configuration = {
    mode: production ? 'production' : 'development',
    context: options.dir,
    // MF's asyncStartup: the entry's startup waits for the runtime to negotiate the shared
    // singletons, so the entry is the app's bootstrap itself (no index.ts → import('./bootstrap')).
    entry: { main: './src/bootstrap.tsx' },
    target: ['web', 'es2022'],
    devtool: production ? (process.env.SOURCE_MAPS ? 'source-map' : false) : 'cheap-module-source-map',
    output: {
      path: join(options.dir, 'dist'),
      publicPath: isShell ? '/' : 'auto',
      uniqueName: mfName,
      filename: `[name]${hash}.js`,
      chunkFilename: `[name]${hash}.js`,
      cssFilename: `[name]${hash}.css`,
      cssChunkFilename: `[name]${hash}.css`,
      assetModuleFilename: `assets/[name]${hash}[ext]`,
      clean: true,
    },
    // Remotes: the MF runtime's helper packages come from the page (the shell's copy).
    ...(shareRuntime && !isShell ? { externals: { ...SHARED_RUNTIME_GLOBALS }, externalsType: 'global' as const } : {}),
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
      // An import of a `.js` file names its `.ts` source in TypeScript written for Node (packages/contract), as tsc reads it.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      alias: reactRouterAliases(options.dir, production),
    },
    module: {
      // An import of a name a module does not export fails the build instead of giving
      // `undefined` at run time. (Shared modules are resolved at run time, so for the
      // react-router subset the check is react-router-subset.test.ts.)
      parser: { javascript: { exportsPresence: 'error' } },
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic' } },
            },
            env: { targets: BROWSER_TARGETS },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, type: 'css' },
        { test: /\.(svg|png|jpe?g|webp|woff2?)$/, type: 'asset' },
      ],
    },
    plugins: [
      new ModuleFederationPlugin({
        name: mfName,
        ...(isShell ? { remotes: {} } : { filename: 'remoteEntry.js', exposes: options.exposes ?? {} }),
        shared,
        shareStrategy: 'loaded-first',
        // Browser-only builds: leaves the runtime's Node.js code paths out.
        // One runtime core per page (shared-runtime.ts): the shell provides it, remotes use it.
        experiments: {
          optimization: { target: 'web' },
          asyncStartup: true,
          ...(shareRuntime ? (isShell ? { provideExternalRuntime: true } : { externalRuntime: true }) : {}),
        },
        runtimePlugins: [...(options.runtimePlugins ?? []), ...(shareRuntime && isShell ? [PROVIDE_RUNTIME_PLUGIN] : [])],
        // Types come from @boatshop/state, not from generated remote types.
        dts: false,
      }),
      new rspack.HtmlRspackPlugin({
        title: options.title,
        templateContent: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="${FAVICON}"><title>${options.title}</title>${standaloneRuntime}</head><body><div id="root"></div></body></html>`,
      }),
      // The shell's startup chunks (main.js, the shared libraries it provides) as preloads in index.html, so a
      // phone fetches them beside main.js instead of after running it (startup-hints.ts).
      ...(isShell ? [new StartupHintsPlugin({ publicPath: '/' })] : []),
      ...(routes ? [new RoutesFilePlugin(routes)] : []),
      // Remotes: the bundler runtime's functions come from the page too (remote-bundler-runtime.cjs).
      ...(shareRuntime && !isShell ? [new rspack.NormalModuleReplacementPlugin(BUNDLER_RUNTIME_INDEX, REMOTE_BUNDLER_RUNTIME)] : []),
      new rspack.DefinePlugin({
        // A label a release can carry (RELEASE_LABEL=2024-06-01 npm run build), shown
        // unobtrusively; the e2e suite uses it to prove a new remote release is picked up.
        'process.env.RELEASE_LABEL': JSON.stringify(process.env.RELEASE_LABEL ?? ''),
        // The MF version the shell's runtime is: a remote built for another one is refused.
        'process.env.MF_RUNTIME_VERSION': JSON.stringify(shareRuntime ? mfVersion : ''),
      }),
    ],
    // Chunk names that say what they hold (node_modules_react-dom_client_js.3f9a1c2b.js), so a
    // network log shows which shared library came from where; contents are hashed all the same.
    optimization: { chunkIds: 'named' },
    performance: { hints: false },
    devServer: {
      port: portOf(options.app),
      host: 'localhost',
      historyApiFallback: true,
      // The shell fetches a remote's manifest and chunks from another origin.
      headers: isShell ? [] : [{ key: 'Access-Control-Allow-Origin', value: '*' }],
      proxy: [{ context: ['/api'], target: apiUrl }],
      client: { overlay: { errors: true, warnings: false } },
      setupMiddlewares: (middlewares) => {
        if (isShell) {
          middlewares.unshift({
            name: 'remotes-manifest',
            path: '/remotes.json',
            middleware: (
              _request: unknown,
              response: { statusCode: number; setHeader(name: string, value: string): void; end(body: string): void },
            ) => {
              void remotesBody().then(
                (manifest) => {
                  response.setHeader('content-type', 'application/json');
                  response.end(JSON.stringify(manifest));
                },
                (error: unknown) => {
                  console.error('cannot build /remotes.json', error);
                  response.statusCode = 500;
                  response.end('{"error":{"code":"INTERNAL","message":"Internal server error"}}');
                },
              );
            },
          });
        }
        return middlewares;
      },
    },
  };
  const server = options.serverPages ? serverPagesConfig(options, production, config) : null;
  if (!standaloneRuntime) return server ? [{ ...config, name: options.app }, server] : config;
  // The standalone page's provider: a second compilation without Module Federation (MF adds its
  // runtime to every entry of a compilation it is in), written beside the app's files after them.
  const standalone: Configuration = {
    name: `${options.app}-standalone-runtime`,
    dependencies: [options.app],
    mode: 'production',
    context: options.dir,
    entry: { 'mf-runtime': STANDALONE_RUNTIME_ENTRY },
    target: ['web', 'es2022'],
    devtool: false,
    output: { path: join(options.dir, 'dist'), filename: STANDALONE_RUNTIME_FILE, clean: false },
    performance: { hints: false },
  };
  return [{ ...config, name: options.app }, standalone, ...(server ? [server] : [])];
}

/**
 * A remote's server build (SERVER_PAGES_FILE): its server entry and the pages it imports as one
 * CommonJS file for Node.js, without Module Federation and without stylesheets, the shared
 * singletons left as `require`s that the rendering server answers with its own copies. Written
 * after the browser build (which cleans dist), so a release carries both.
 */
function serverPagesConfig(options: FrontEndConfigOptions, production: boolean, browser: Configuration): Configuration {
  const { rspack } = options.bundler;
  // The browser build's TypeScript/React rule (its first), for Node.js 20.
  const swc = browser.module!.rules![0] as RuleSetRule & { options: object };
  return {
    name: `${options.app}-server-pages`,
    dependencies: [options.app],
    mode: production ? 'production' : 'development',
    context: options.dir,
    entry: { pages: options.serverPages! },
    target: ['node20'],
    devtool: false,
    output: {
      path: join(options.dir, 'dist', dirname(SERVER_PAGES_FILE)),
      filename: basename(SERVER_PAGES_FILE),
      library: { type: 'commonjs2' },
      clean: false,
    },
    externals: Object.fromEntries(SERVER_SHARED_MODULES.map((request) => [request, `commonjs ${request}`])),
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      alias: { '@module-federation/enhanced/runtime$': SERVER_MF_RUNTIME_STUB },
    },
    module: {
      parser: { javascript: { exportsPresence: 'error' } },
      rules: [
        { ...swc, options: { ...swc.options, env: { targets: 'node 20' } } },
        // The browser build carries the stylesheets; the server renders markup only.
        { test: /\.css$/, type: 'asset/source' },
        { test: /\.(svg|png|jpe?g|webp|woff2?)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    },
    plugins: [
      // One file: a render never waits for a chunk.
      new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
      new rspack.DefinePlugin({
        'process.env.RELEASE_LABEL': JSON.stringify(process.env.RELEASE_LABEL ?? ''),
        'process.env.MF_RUNTIME_VERSION': JSON.stringify(''),
      }),
    ],
    optimization: { minimize: false },
    performance: { hints: false },
  };
}
