import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { RouteAccess, RouteEntry, RouteLayout, RouteTable } from '@boatshop/web-shared/route-data';
import { GuestOnly, RequireAdmin, RequireSession } from './guards/guards';
import { DashboardLayout, MainLayout } from './layouts/layouts';
import { NotFound } from './pages/not-found';
import { RemotePage } from './remotes/remote-page';

/**
 * The shell's router, built at run time from the remotes' route data (each remote's
 * src/routes.ts, given by the shell's server with /remotes.json and the page data block): the
 * remotes say which pages exist, who may open them and which layout frames them; the shell keeps
 * the guards and the layouts. A remote's new page needs no shell build. The table comes
 * from the shell's own server, which has already accepted it (packages/web-server, remotes.ts
 * `acceptRoutes`: every entry valid, no path claimed twice), so the browser carries no validator.
 */

interface Accepted {
  remote: string;
  route: RouteEntry;
}

/** The page a route renders: its remote's exposed module, or (a `…/*` route without one) the not-found page. */
function pageOf({ remote, route }: Accepted): ReactNode {
  return route.module ? <RemotePage remote={remote} page={route.module.slice(2)} /> : <NotFound />;
}

/** react-router's path for a route: relative to the root layout routes, `/` as the index route. */
function routeObject(accepted: Accepted, wrap: (page: ReactNode) => ReactNode = (page) => page): RouteObject {
  const element = wrap(pageOf(accepted));
  return accepted.route.path === '/' ? { index: true, element } : { path: accepted.route.path.slice(1), element };
}

/** Guards around a page inside the main layouts: the header stays while the session is checked. */
function guarded(access: RouteAccess, page: ReactNode): ReactNode {
  switch (access) {
    case 'public':
      return page;
    case 'guest-only':
      return <GuestOnly>{page}</GuestOnly>;
    case 'signed-in':
      return <RequireSession>{page}</RequireSession>;
    case 'admin':
      return <RequireAdmin>{page}</RequireAdmin>;
  }
}

/**
 * Routes → remote pages with the layouts and guards; `elsewhere` is what a path no
 * route matches shows (the not-found page; App gives the page saying this part of the shop cannot
 * be reached while the server does not know some remote's pages):
 * - `main` and `full-bleed`: header, content, footer; the guard sits inside the layout.
 * - `dashboard`: the guard comes first (the sidebar shows the signed-in user), then the
 *   sidebar layout: an `admin` page's leads to the admin pages (`/admin`), any other's to the
 *   account (`/dashboard`).
 * - Everything no remote claims: `elsewhere` in the main layout. A remote that claims a
 *   prefix (`/admin/*`) gets its unknown paths behind its guard instead: an administrator sees
 *   the not-found page in the admin layout, everyone else is sent to /login first, and the
 *   remote itself is never asked (RemotePage loads a remote only for a page it renders).
 */
export function buildRoutes(table: RouteTable, elsewhere: ReactNode = <NotFound />): RouteObject[] {
  const accepted: Accepted[] = Object.entries(table).flatMap(([remote, routes]) => routes.map((route) => ({ remote, route })));
  const withLayout = (layout: RouteLayout) => accepted.filter(({ route }) => route.layout === layout);
  const dashboards = (['signed-in', 'admin', 'guest-only', 'public'] as const)
    .map((access) => ({ access, routes: withLayout('dashboard').filter(({ route }) => route.access === access) }))
    .filter(({ routes }) => routes.length > 0);
  const routes: RouteObject[] = [
    {
      element: <MainLayout fullBleed />,
      children: withLayout('full-bleed').map((entry) => routeObject(entry, (page) => guarded(entry.route.access, page))),
    },
    {
      element: <MainLayout />,
      children: [
        ...withLayout('main').map((entry) => routeObject(entry, (page) => guarded(entry.route.access, page))),
        { path: '*', element: elsewhere },
      ],
    },
    ...dashboards.map(({ access, routes: entries }) => {
      const layout = {
        element: <DashboardLayout home={access === 'admin' ? '/admin' : '/dashboard'} />,
        children: entries.map((e) => routeObject(e)),
      };
      return access === 'public' ? layout : { element: guarded(access, null), children: [layout] };
    }),
  ];
  return routes;
}
