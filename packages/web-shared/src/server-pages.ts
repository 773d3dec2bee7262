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
   * listing's first page, with `summary`: the search API's total and facet counts for it, when
   * read): `{ product }`, `{ missing: true }`, `{ listing, summary? }`, or null (not read).
   */
  data: ServerPageData;
}

export type ServerPageData = { product: unknown } | { missing: true } | { listing: unknown; summary?: unknown } | null;

/** The module a server build exports. */
export interface ServerPages {
  /** Bumped when the input or the answer changes shape; the server renders only a schema it knows. */
  schema: 1;
  /** The exposed modules it can render. */
  modules: readonly string[];
  /** The page as a React element (of the server's React), or null when it cannot render `input`. */
  render(input: ServerRenderInput): unknown;
}

/**
 * What a server build's `page` gives for hydration: the page's component, to be rendered inside
 * the shell's frame (its router, layout and error boundary), with the build's stores already set
 * from `input.data`. A build without `page` (released before hydration) is rendered with `render`
 * for visitors without JavaScript only.
 */
export interface ServerPage {
  component: unknown;
}

/** The optional member of `ServerPages` a build for hydration adds. */
export interface HydratablePages extends ServerPages {
  /** The page's component with its stores set from `input.data`, or null when it cannot render `input`. */
  page?(input: ServerRenderInput): ServerPage | null;
}

/**
 * The shell's own server build (the same file name in the shell's dist): its frame (router,
 * layout, header and footer without personal parts) around a remote page's component.
 */
export interface ServerFrame {
  schema: 1;
  /** The frame as a React element, or null when the shell would not render this page's remote at `url`. */
  render(input: ServerFrameInput): unknown;
}

export interface ServerFrameInput {
  /** The page's path and query. */
  url: string;
  /** The route data and unknown remotes, as the page data block gives them to the browser. */
  routes: Record<string, unknown>;
  unavailable: readonly string[];
  /** The remote page the route names (`mf_catalog`, `Product`) and its component from the remote's build. */
  page: { remote: string; module: string; component: unknown };
}

/**
 * The page data block's part for hydration: present only when #root holds the server's render of
 * this page. The browser loads `remote/module`, gives `data` to the module's `hydrateWith`
 * (which sets the page's stores, exactly as the server build did) and hydrates; if any of that
 * fails it renders from scratch.
 */
export interface ServerRenderedBlock {
  remote: string;
  /** The exposed module without `./` (`Product`). */
  module: string;
  url: string;
  data: ServerPageData;
}
