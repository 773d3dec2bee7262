import type { ComponentType } from 'react';
import { matchPath, Route, Routes, StaticRouter } from 'react-router';
import type { Product, ProductPage } from '@boatshop/contract';
import type { ServerPages, ServerRenderInput } from '@boatshop/web-shared/server-pages';
import { $listing, listingKey } from './catalog/listing';
import { $product } from './catalog/product';
import Home from './pages/home';
import ProductPageView from './pages/product';
import Search from './pages/search';
import { routes } from './routes';

/**
 * The catalogue's server build (docs/server-rendering.md): the exposed pages, rendered by the
 * shell's server from the data it read from the API. The shell's server evaluates this module
 * afresh for each render, so the page stores set here ($product, $listing) belong to that render
 * alone; the shared stores (@boatshop/state: cart, session) are the server's empty ones, so what is
 * personal (the cart, a signed-in name) is drawn in the browser.
 */
const PAGES: Record<string, ComponentType> = { './Home': Home, './Search': Search, './Product': ProductPageView };

function render({ module, url, data }: ServerRenderInput) {
  const Page = PAGES[module];
  if (!Page) return null;
  const location = new URL(url, 'http://server.invalid');
  const paths = routes.filter((route) => route.module === module).map((route) => route.path);
  const params = paths.map((path) => matchPath(path, location.pathname)?.params).find(Boolean);
  if (!params) return null;
  if (data && 'product' in data && typeof params.productID === 'string') {
    const product = data.product as Product;
    // The API sanitises descriptions on write; the browser sanitises again when it loads the product.
    $product.set({ id: params.productID, state: { status: 'ready', product, safeDescription: product.descriptionHtml ?? '' } });
  } else if (data && 'missing' in data && typeof params.productID === 'string') {
    $product.set({ id: params.productID, state: { status: 'missing' } });
  } else if (data && 'listing' in data) {
    const page = data.listing as ProductPage;
    const query = location.searchParams;
    const key = listingKey({
      filterType: params.filterType,
      q: query.get('q') ?? '',
      hideSold: query.get('available') === '1',
      cursor: query.get('cursor'),
    });
    $listing.set({ key, status: 'ready', products: page.data, cursor: page.cursor, isLastPage: page.isLastPage, loadingMore: false });
  }
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

const pages: ServerPages = { schema: 1, modules: Object.keys(PAGES), render };
export default pages;
