import { useEffect, useMemo, useRef, useState } from 'react';
import { BrowserRouter, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import type { RouteTable } from '@boatshop/web-server/route-data';
import { givenRouteTable, loadRouteTable } from './remotes/registry';
import { buildRoutes } from './routes';
import './styles/tokens.css';
import './styles/base.css';
import './styles/frame.css';

/** The title of the build's index.html; the server writes each page's own on a full load. */
export const SHOP_TITLE = 'Boat shop: sailing boats and yachts';

/**
 * The shell's server gives each page its title (a product's name, "Your cart"); after a
 * navigation inside the app that title would describe the page left behind, so it goes back to
 * the shop's.
 */
function useShopTitleAfterNavigation() {
  const { pathname } = useLocation();
  const landedOn = useRef<string | null>(pathname);
  useEffect(() => {
    if (landedOn.current === pathname) return;
    landedOn.current = null;
    document.title = SHOP_TITLE;
  }, [pathname]);
}

function AppRoutes({ routes }: { routes: RouteObject[] }) {
  useShopTitleAfterNavigation();
  return useRoutes(routes);
}

/**
 * The remotes' route data: the page came with it (the shell's server writes it), else it is
 * asked from /remotes.json (the development server's pages); Retry asks again after a failure.
 */
function useRouteTable(): { table: RouteTable | null; failed: boolean; retry: () => void } {
  const [table, setTable] = useState<RouteTable | null>(givenRouteTable);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (table) return;
    let current = true;
    loadRouteTable().then(
      (loaded) => current && setTable(loaded),
      (error: unknown) => {
        console.error('cannot load the route data of the remotes', error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [table, attempt]);
  return {
    table,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}

/**
 * Declarative routing (BrowserRouter + useRoutes), its routes built from the remotes' route data
 * (routes.tsx): the shop uses no loaders or actions, so the data router, and its weight in every
 * page load, stays out of the shared react-router.
 */
export function App() {
  const { table, failed, retry } = useRouteTable();
  const routes = useMemo(() => (table ? buildRoutes(table) : null), [table]);
  if (!routes) {
    return failed ? (
      <div className="shell-remote-unavailable" role="alert">
        <p>This part of the shop is unavailable right now.</p>
        <button type="button" className="bs-button" onClick={retry}>
          Retry
        </button>
      </div>
    ) : (
      <p className="shell-remote-loading" role="status">
        Loading…
      </p>
    );
  }
  return (
    <BrowserRouter>
      <AppRoutes routes={routes} />
    </BrowserRouter>
  );
}
