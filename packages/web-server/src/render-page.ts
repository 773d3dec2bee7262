import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerPageData } from '@boatshop/web-shared/server-pages';
import type { ApiReads } from './api-reads';
import { escapeHtml, type PageData } from './head';
import type { Page } from './pages';
import type { FrameOptions, FramedRenderOutcome, ServerRenderer, ServerRenderOutcome } from './server-render';

/** The pages whose remote page the shell's server renders: the catalogue's, which anyone may see. */
export function isCataloguePage(page: Page): boolean {
  return page.kind === 'home' || page.kind === 'search' || page.kind === 'product';
}

/**
 * A catalogue page rendered by its release's server build, with the data the shell's server read
 * from the API (the product the head also uses, or the listing's first page), within the API
 * reads' time-out and cache. Without its data in time the page is not rendered here (skipped,
 * not a failure): the browser renders it as before.
 */
export async function renderRemotePage(
  renderer: ServerRenderer,
  api: ApiReads,
  manifestUrl: string,
  module: string,
  url: string,
  product: Promise<PageData>,
  listingPath: string | null,
  /** The search API's call for the listing's facet counts (drawn with it, so nothing moves after hydration). */
  summaryPath: string | null,
  /** Read the listing anew (the page is rendered from a build: what it shows must be current). */
  fresh: boolean,
  /** The shell's frame to render the page in (for hydration); null: the remote page alone. */
  frame: FrameOptions | null = null,
): Promise<FramedRenderOutcome> {
  let data: ServerPageData = null;
  if (listingPath) {
    const [listing, summary] = await Promise.all([
      api.listingPage(listingPath, fresh),
      summaryPath ? api.listingPage(summaryPath, fresh) : null,
    ]);
    if (listing === null) return { skipped: 'the listing was not read in time' };
    // A faceted search's list is the search API's answer, which carries its own counts.
    const counts = (summary ?? (summaryPath ? null : listing)) as { total?: unknown; facets?: unknown } | null;
    data =
      typeof counts?.total === 'number' && counts.facets
        ? { listing, summary: { total: counts.total, facets: counts.facets } }
        : { listing };
  } else {
    const read = await product;
    if (read) data = 'product' in read ? { product: read.product } : { missing: true };
    else if (module === './Product') return { skipped: 'the product was not read in time' };
  }
  if (frame) return renderer.renderInFrame(manifestUrl, { module, url, data }, frame);
  const alone = await renderer.render(manifestUrl, { module, url, data });
  return 'html' in alone ? { html: alone.html, hydratable: false, data } : alone;
}

/**
 * The page with the server's render of its frame and remote page inside #root, for the browser
 * to hydrate (the remote page's stylesheets as stylesheets, so the HTML paints styled). Null
 * when it cannot go there (no render for hydration, or a template without an empty #root):
 * then `withServerRendered` puts what there is in `<noscript>`.
 */
export function withHydratableRender(page: string, outcome: FramedRenderOutcome, stylesheets: readonly string[]): string | null {
  if (!('html' in outcome) || !outcome.hydratable || !page.includes('<div id="root"></div>')) return null;
  // React writes the preloads it finds (a high-priority picture) before the markup: they belong in
  // the head, and #root holds only what the browser hydrates.
  const hoisted = /^(?:<link\b[^>]*>)+/.exec(outcome.html)?.[0] ?? '';
  const links = stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('') + hoisted;
  const markup = outcome.html.slice(hoisted.length);
  return page.replace('</head>', () => `${links}</head>`).replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
}

/**
 * The page with the remote page's server-rendered HTML for visitors without JavaScript (and
 * crawlers): inside `<noscript>` after the shell's root, so a browser running the shell never
 * shows it and the page looks as it did. HTML that could close the noscript element early is
 * left out.
 */
export function withServerRendered(page: string, outcome: ServerRenderOutcome): string {
  if (!('html' in outcome) || /<\/noscript/i.test(outcome.html)) return page;
  const block = `<noscript><div class="shell-server-rendered">${outcome.html}</div></noscript>`;
  return page.includes('<div id="root"></div>')
    ? page.replace('<div id="root"></div>', () => `<div id="root"></div>${block}`)
    : page.replace('</body>', () => `${block}</body>`);
}

/**
 * The request as the registry should see it once this reply's cookies are set: a first-time
 * visitor's canary seed is given in this reply (set-cookie), and a failure of their page counts
 * against the release that seed chose, like their page load.
 */
export function withGivenCookie(request: FastifyRequest, reply: FastifyReply): FastifyRequest {
  const given = reply.getHeader('set-cookie');
  const cookies = (Array.isArray(given) ? given : given === undefined ? [] : [String(given)]).map((cookie) => cookie.split(';')[0]!);
  if (cookies.length === 0) return request;
  const cookie = [request.headers.cookie, ...cookies].filter(Boolean).join('; ');
  return Object.create(request, { headers: { value: { ...request.headers, cookie } } }) as FastifyRequest;
}
