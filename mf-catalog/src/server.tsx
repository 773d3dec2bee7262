import type { ComponentType } from 'react';
import { Route, Routes, StaticRouter } from 'react-router';
import type { HydratablePages, ServerRenderInput } from '@boatshop/web-shared/server-pages';
import Home from './pages/home';
import ProductPageView from './pages/product';
import Search from './pages/search';
import { routes } from './routes';
import { holdPageData } from './server-data';

/**
 * The catalogue's server build (docs/server-rendering.md): the exposed pages, rendered by the
 * shell's server from the data it read from the API. The shell's server evaluates this module
 * afresh for each render, so the page stores set here ($product, $listing) belong to that render
 * alone. What is personal (the cart, a signed-in name, the chosen units) renders as for a visitor
 * without them, on the server and while the browser hydrates, and is drawn right after.
 */
const PAGES: Record<string, ComponentType> = { './Home': Home, './Search': Search, './Product': ProductPageView };

/** The page's component inside the shell's frame, its stores set from the server's data (hydration). */
function page({ module, url, data }: ServerRenderInput) {
  const component = PAGES[module];
  if (!component || !holdPageData(module, url, data, false)) return null;
  return { component };
}

/** The page on its own (for a shell that only puts it in `<noscript>`, released before hydration). */
function render({ module, url, data }: ServerRenderInput) {
  const Page = PAGES[module];
  if (!Page) return null;
  const location = new URL(url, 'http://server.invalid');
  if (!holdPageData(module, url, data, false) && data !== null) return null;
  const paths = routes.filter((route) => route.module === module).map((route) => route.path);
  return (
    <StaticRouter location={`${location.pathname}${location.search}`}>
      <Routes>
        {paths.map((path) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
      </Routes>
    </StaticRouter>
  );
}

const pages: HydratablePages = { schema: 1, modules: Object.keys(PAGES), render, page };
export default pages;
