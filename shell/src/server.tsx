import { StrictMode, type ComponentType } from 'react';
import { StaticRouter } from 'react-router-dom';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import type { ServerFrame, ServerFrameInput } from '@boatshop/web-shared/server-pages';
import { AppRoutes } from './App';
import { Unreachable } from './pages/unreachable';
import { holdLoadedPage } from './remotes/remote-page';
import { buildRoutes } from './routes';

const askNothing = () => Promise.resolve();

/**
 * The shell's server build (docs/server-rendering.md): its frame (router, layout, header and
 * footer) around the remote page's component, as the browser's App renders it, so the browser
 * hydrates the HTML. The shell's server evaluates this module afresh for each render (the loaded
 * page is module state). Personal parts (sign-in state, cart count) render as for a visitor without
 * them; the browser draws them after hydrating.
 */
function render({ url, routes, unavailable, page }: ServerFrameInput) {
  if (typeof page.component !== 'function' && (typeof page.component !== 'object' || page.component === null)) return null;
  holdLoadedPage({ remote: page.remote, page: page.module.replace(/^\.\//, '') }, page.component as ComponentType);
  const table = buildRoutes(routes as RouteTable, unavailable.length > 0 ? <Unreachable askAgain={askNothing} /> : undefined);
  return (
    <StrictMode>
      <StaticRouter location={url}>
        <AppRoutes routes={table} />
      </StaticRouter>
    </StrictMode>
  );
}

const frame: ServerFrame = { schema: 1, render };
export default frame;
