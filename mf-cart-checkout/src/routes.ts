import type { RouteData } from '@boatshop/web-shared/route-data';

/**
 * The cart's and checkout's pages, as data (docs/ARCHITECTURE.md, "Module Federation"): the
 * build writes them to dist/routes.json, and the shell builds its router from them at run time.
 * `module` is one of the exposes in rspack.config.ts; `title` is the page's title in the HTML.
 */
export const routes = [
  { path: '/cart', module: './Cart', access: 'public', layout: 'main', title: 'Your cart' },
  { path: '/payment', module: './Payment', access: 'signed-in', layout: 'main', title: 'Payment' },
  // offers: the checkout of an accepted offer, at its agreed price
  { path: '/payment/offer/:offerID', module: './OfferPayment', access: 'signed-in', layout: 'main', title: 'Payment' },
] as const satisfies RouteData;
