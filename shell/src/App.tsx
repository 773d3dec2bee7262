import { useEffect, useRef } from 'react';
import { BrowserRouter, useLocation, useRoutes } from 'react-router-dom';
import { routes } from './routes';
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

function AppRoutes() {
  useShopTitleAfterNavigation();
  return useRoutes(routes);
}

/**
 * Declarative routing (BrowserRouter + useRoutes): the shop uses no loaders or actions, so the
 * data router, and its weight in every page load, stays out of the shared react-router.
 */
export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
