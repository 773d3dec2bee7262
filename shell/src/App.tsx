import { BrowserRouter, useRoutes } from 'react-router-dom';
import { routes } from './routes';
import './styles.css';

function AppRoutes() {
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
