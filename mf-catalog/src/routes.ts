import type { RouteData } from '@boatshop/web-shared/route-data';

/**
 * The catalogue's pages, as data (docs/ARCHITECTURE.md, "Module Federation"): the build writes
 * them to dist/routes.json, and the shell builds its router from them at run time, so a new
 * page here needs no shell release. `module` is one of the exposes in rspack.config.ts.
 */
export const routes = [
  { path: '/', module: './Home', access: 'public', layout: 'full-bleed' },
  { path: '/search', module: './Search', access: 'public', layout: 'main' },
  { path: '/search/:filterType', module: './Search', access: 'public', layout: 'main' },
  { path: '/product/:productID', module: './Product', access: 'public', layout: 'main' },
  // find: up to three boats side by side, named in the address (shareable)
  { path: '/compare', module: './Compare', access: 'public', layout: 'main' },
] as const satisfies RouteData;
