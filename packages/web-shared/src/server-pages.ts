/**
 * A remote's server build of its pages (docs/server-rendering.md): one CommonJS file beside its
 * browser build, `dist/server/pages.cjs` next to `dist/mf-manifest.json`, published with the same release.
 * The shell's server evaluates it afresh for each render, so its module state (a page's stores)
 * lives for one render, and hands it the shared singletons (`SERVER_SHARED_MODULES`) from its own
 * copies: one React per render, as in the browser.
 */
export const SERVER_PAGES_FILE = 'server/pages.cjs';

/** The modules a server build leaves out and takes from the server that renders it. */
export const SERVER_SHARED_MODULES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/server',
  'react-router',
  'react-router-dom',
  'nanostores',
  '@nanostores/react',
  '@boatshop/state',
] as const;

/** What the shell's server asks a remote's server build to render. */
export interface ServerRenderInput {
  /** The exposed module that renders the page (`./Product`), from the route data. */
  module: string;
  /** The page's path and query, as the browser asked for it. */
  url: string;
  /**
   * The page's data, read by the shell's server from the API (GET /api/products/:id, or the
   * listing's first page): `{ product }`, `{ missing: true }`, `{ listing }`, or null (not read).
   */
  data: ServerPageData;
}

export type ServerPageData = { product: unknown } | { missing: true } | { listing: unknown } | null;

/** The module a server build exports. */
export interface ServerPages {
  /** Bumped when the input or the answer changes shape; the server renders only a schema it knows. */
  schema: 1;
  /** The exposed modules it can render. */
  modules: readonly string[];
  /** The page as a React element (of the server's React), or null when it cannot render `input`. */
  render(input: ServerRenderInput): unknown;
}
