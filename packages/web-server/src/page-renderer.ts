// The shell's page for one URL: index.html with the head computed here, the first-paint hints
// and data block, and the remote page rendered on the server for hydration when it can be.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_PAGES_FILE } from '@boatshop/web-shared/server-pages';
import { scriptsAfterPaint } from './after-paint';
import { ApiReads, apiReadsOptions } from './api-reads';
import { apiDataOf, FirstPaint, imageHint, pageDataScript, pictureHint, searchSummaryOf } from './first-paint';
import { buildHead, renderHead, type PageData } from './head';
import { matchPage, remotePageOf } from './pages';
import type { RemotesBody } from './remotes';
import { isCataloguePage, renderRemotePage, withHydratableRender, withServerRendered } from './render-page';
import { ServerRenderer, serverRenderOptions, type FramedRenderOutcome } from './server-render';

type Env = Record<string, string | undefined>;

/**
 * The longest a page waits for its optional parts (the remotes' data block and hints): past it the
 * page goes out without them, and the shell's runtime asks /remotes.json itself.
 */
const FIRST_PAINT_DEADLINE_MS = 1500;
/** The shop's public origin, without a trailing slash (PUBLIC_URL, as the API reads it). */
export function publicUrlOf(env: Env): string {
  return (env.PUBLIC_URL || `http://localhost:${env.SHELL_PORT || 3000}`).replace(/\/+$/, '');
}

/**
 * The shell's index.html for one page, with the head computed here: title, description,
 * canonical, robots, sharing tags and a product's JSON-LD (head.ts), the first-paint hints and
 * the remotes' data block (first-paint.ts), and the status (404 for an unknown product or page;
 * 503 for a path no known route matches while some remote's route data is not known).
 * The template is checked per request (its size and time of change), so a rebuilt shell is live
 * at once, like its static files; it is read again only when it changed.
 */
export function pageRenderer(distDir: string, options: { apiUrl: string; env?: Env }) {
  const env = options.env ?? process.env;
  const publicUrl = publicUrlOf(env);
  const readsOptions = apiReadsOptions(options.apiUrl, env);
  const api = new ApiReads(readsOptions);
  const firstPaint = new FirstPaint({ env, timeoutMs: readsOptions.timeoutMs });
  const serverPages = env.SSR === '0' ? null : new ServerRenderer(serverRenderOptions(env));
  void serverPages?.warmUp();
  // The shell's own server build: its frame, rendered around the remote page for hydration.
  const shellBuild = join(distDir, SERVER_PAGES_FILE);
  const template = templateReader(join(distDir, 'index.html'));
  return async (
    rawUrl: string,
    remotes: RemotesBody | null,
  ): Promise<{
    status: number;
    html: string;
    remote: string | null;
    timings: Record<string, number>;
    /** Why the remote page's server render failed (it renders in the browser instead); null when it did not. */
    serverRenderFailure: string | null;
  }> => {
    const started = performance.now();
    const timings: Record<string, number> = {};
    const timed = <T>(step: string, promise: Promise<T>): Promise<T> =>
      promise.finally(() => {
        timings[step] = Math.round(performance.now() - started);
      });
    const url = new URL(rawUrl, 'http://shell.invalid');
    // Known pages are the ones the visitor's remotes declare (their route data): what the shell
    // routes. Without the remotes at all, or without one remote's route data, a path no known
    // route matches may still be a page.
    const routes = remotes?.routes ?? {};
    const partlyUnknown = !remotes || remotes.unavailable.length > 0;
    const page = matchPage(url.pathname, url.searchParams, routes, partlyUnknown);
    const remotePage = page.kind === 'not-found' || page.kind === 'unavailable' ? null : remotePageOf(url.pathname, routes);
    // A listing's largest paint on a phone is its first card's picture: hinted like a product's.
    const listing = page.kind === 'search' ? apiDataOf(page, url.searchParams) : null;
    const manifestUrl = remotePage ? remotes?.remotes[remotePage.remote] : undefined;
    // Read anew when the page is rendered on the server: the visitor sees (and buys from) its
    // price and stock. (A page whose release has no server build keeps the head's cached reads.)
    const fresh = Boolean(serverPages && manifestUrl && isCataloguePage(page) && serverPages.rendersFrom(manifestUrl));
    const productRead = page.kind === 'product' ? api.product(page.id, fresh) : Promise.resolve<PageData>(null);
    const [templateHtml, data, paint, firstPicture, rendered] = await Promise.all([
      timed('template', template()),
      timed('product', productRead),
      timed(
        'firstPaint',
        withDeadline(firstPaint.forPage(page, remotePage, url.searchParams, remotes), FIRST_PAINT_DEADLINE_MS, {
          html: () => '',
          data: null,
        }),
      ),
      timed('firstPicture', listing ? api.firstPicture(listing) : Promise.resolve(null)),
      timed(
        'serverRender',
        // (A search address whose facets the page would not read as they are has no list to render from.)
        serverPages && remotePage && manifestUrl && isCataloguePage(page) && (page.kind !== 'search' || listing !== null)
          ? renderRemotePage(
              serverPages,
              api,
              manifestUrl,
              `./${remotePage.page}`,
              rawUrl,
              productRead,
              listing,
              searchSummaryOf(page, url.searchParams),
              fresh,
              {
                file: shellBuild,
                remote: remotePage.remote,
                routes: remotes?.routes ?? {},
                unavailable: remotes?.unavailable ?? [],
              },
            )
          : Promise.resolve<FramedRenderOutcome>({ skipped: 'not a catalogue page' }),
      ),
    ]);
    const head = buildHead(page, url.pathname, data, publicUrl);
    // The frame and page rendered for hydration go into #root, and the page data block says from
    // what data (once: the browser reads it from there instead of asking the API again).
    const hydrate = 'html' in rendered && rendered.hydratable && paint.data !== null && remotePage !== null;
    const paintHtml =
      hydrate && paint.data && remotePage
        ? (paint.hints ?? '') +
          pageDataScript({
            ...paint.data,
            serverRendered: { remote: remotePage.remote, module: remotePage.page, url: rawUrl, data: rendered.data },
          })
        : paint.html();
    const tags = renderHead(head) + pictureHint(data) + imageHint(firstPicture) + paintHtml;
    // The build's own <title> makes way for the page's tags.
    let html = /<title>[\s\S]*?<\/title>/.test(templateHtml)
      ? templateHtml.replace(/<title>[\s\S]*?<\/title>/, () => tags)
      : templateHtml.replace('</head>', () => `${tags}</head>`);
    const hydratable = hydrate ? withHydratableRender(html, rendered, paint.stylesheets ?? []) : null;
    // A page painted from its HTML asks for its scripts once it has loaded (after-paint.ts).
    html = hydratable ? scriptsAfterPaint(hydratable) : withServerRendered(html, rendered);
    timings.render = Math.round(performance.now() - started);
    const serverRenderFailure = 'failed' in rendered ? rendered.failed : null;
    return { status: head.status, html, remote: remotePage?.remote ?? null, timings, serverRenderFailure };
  };
}

/** The file's text, read again only when its size or time of change differs from the last read. */
function templateReader(file: string): () => Promise<string> {
  let last: { mtimeMs: number; size: number; text: string } | null = null;
  return async () => {
    const { mtimeMs, size } = await stat(file);
    if (last && last.mtimeMs === mtimeMs && last.size === size) return last.text;
    const text = await readFile(file, 'utf8');
    last = { mtimeMs, size, text };
    return text;
  };
}

/** `promise`, or `fallback` once `ms` have passed without it settling (a rejection stays a rejection). */
export function withDeadline<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
