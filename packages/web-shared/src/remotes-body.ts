import type { ServerRenderedBlock } from './server-pages';
import type { RouteEntry } from './route-data';

/** MF name → URL of that remote's mf-manifest.json. */
export type RemotesManifest = Record<string, string>;

/**
 * The body of the shell's GET /remotes.json, and (with `manifests`) of the page data block:
 * where each remote is, and the pages each declares (its route data, docs/ARCHITECTURE.md).
 */
export interface RemotesBody {
  remotes: RemotesManifest;
  /**
   * MF name → its routes, accepted by the shell's server (acceptRoutes): every entry valid, no
   * path claimed by two remotes. The shell builds its router from them as they are. A remote
   * whose route data is not known is absent (and in `unavailable`).
   */
  routes: Record<string, RouteEntry[]>;
  /**
   * The remotes whose route data is not known: not read since the server started (the remote
   * unreachable, or a release that recorded none). Their pages are unknown, so a path no route
   * matches may be one of them: the server answers it 503 with Retry-After, not 404, and the
   * shell shows "cannot be reached right now" with Retry instead of its not-found page.
   */
  unavailable: string[];
}

/** The id of the JSON data block the shell's server writes into each page and the shell reads once. */
export const PAGE_DATA_ID = 'boatshop-page-data';

/**
 * The page data block (`<script type="application/json" id="boatshop-page-data">`, not executed,
 * so the CSP needs no inline script): GET /remotes.json, plus the current page's remote
 * mf-manifest.json (manifest URL → manifest), so the runtime asks neither.
 */
export interface PageDataBlock extends RemotesBody {
  manifests: Record<string, unknown>;
  /**
   * Present when #root holds the server's render of the page (docs/server-rendering.md): the
   * remote page and the data it was rendered from, for hydration.
   */
  serverRendered?: ServerRenderedBlock;
}
