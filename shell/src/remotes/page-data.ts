import { PAGE_DATA_ID, type PageDataBlock } from '@boatshop/web-shared/remotes-body';
import type { ServerRenderedBlock } from '@boatshop/web-shared/server-pages';

/**
 * What the shell's server wrote into the page for the runtime (packages/web-server,
 * first-paint.ts): the remotes, their route data and the remotes whose route data it does not
 * know (= GET /remotes.json), and the current page's remote mf-manifest.json, as a JSON data
 * block (`PageDataBlock`). Each part is used once; later needs ask the network as before. Read
 * as untrusted: each part may be missing (a server of another version), and the route table's
 * shape is checked where it is used.
 */
type PageData = Partial<Omit<PageDataBlock, 'unavailable' | 'routes' | 'serverRendered'>> & {
  routes?: Record<string, unknown>;
  unavailable?: unknown;
  serverRendered?: unknown;
};

let pageData: PageData | null | undefined;

function read(): PageData | null {
  if (pageData !== undefined) return pageData;
  pageData = null;
  const element = typeof document === 'undefined' ? null : document.getElementById(PAGE_DATA_ID);
  if (element?.textContent) {
    try {
      pageData = JSON.parse(element.textContent) as PageData;
    } catch (error) {
      console.error('The page data block is not JSON; asking the network instead', error);
    }
  }
  return pageData;
}

/**
 * The remotes and their route data the page came with (= GET /remotes.json), once: a Retry
 * after a failure asks /remotes.json.
 */
export function takeGivenRemotes(): { remotes: unknown; routes: unknown; unavailable: unknown } | null {
  const data = read();
  if (!data?.remotes) return null;
  const given = { remotes: data.remotes, routes: data.routes, unavailable: data.unavailable };
  delete data.remotes;
  delete data.routes;
  delete data.unavailable;
  return given;
}

/** A remote's mf-manifest.json the page came with, once. */
export function takeGivenManifest(url: string): unknown {
  const manifests = read()?.manifests;
  if (!manifests || !(url in manifests)) return undefined;
  const manifest = manifests[url];
  delete manifests[url];
  return manifest;
}

/**
 * Which remote page the server rendered into #root and from what data (`ServerRenderedBlock`),
 * once; null when the page came without one (not rendered on the server, or a server of another
 * version) or it is not of that shape.
 */
export function takeServerRendered(): ServerRenderedBlock | null {
  const data = read();
  const given = data?.serverRendered as Partial<ServerRenderedBlock> | undefined;
  if (data) delete data.serverRendered;
  if (!given || typeof given !== 'object') return null;
  const { remote, module, url } = given;
  if (typeof remote !== 'string' || typeof module !== 'string' || typeof url !== 'string' || !('data' in given)) return null;
  return { remote, module, url, data: given.data ?? null };
}

/** Tests start from a new page. */
export function forgetPageData(): void {
  pageData = undefined;
}
