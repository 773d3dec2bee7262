import { useCallback, useEffect, useMemo, useState } from 'react';
import { BrowserRouter, useRoutes, type RouteObject } from 'react-router-dom';
import { usePageHeadAfterNavigation } from './page-head';
import { Unreachable } from './pages/unreachable';
import { askRoutesAgain, givenRoutes, loadRoutes, type KnownRoutes } from './remotes/registry';
import { buildRoutes } from './routes';
import './styles/tokens.css';
import './styles/base.css';
import './styles/frame.css';

export function AppRoutes({ routes }: { routes: RouteObject[] }) {
  usePageHeadAfterNavigation();
  return useRoutes(routes);
}

/**
 * The remotes' route data: the page came with it (the shell's server writes it), else it is
 * asked from /remotes.json (the development server's pages); Retry asks again after a failure.
 * `askAgain` asks the server anew while some remote's pages are unknown; the router is rebuilt
 * only when the answer differs.
 */
function useKnownRoutes(): { known: KnownRoutes | null; failed: boolean; retry: () => void; askAgain: () => Promise<void> } {
  const [known, setKnown] = useState<KnownRoutes | null>(givenRoutes);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (known) return;
    let current = true;
    loadRoutes().then(
      (loaded) => current && setKnown(loaded),
      (error: unknown) => {
        console.error('cannot load the route data of the remotes', error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [known, attempt]);
  const askAgain = useCallback(async () => {
    const fresh = await askRoutesAgain();
    setKnown((before) => (before && JSON.stringify(before) === JSON.stringify(fresh) ? before : fresh));
  }, []);
  return {
    known,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
    askAgain,
  };
}

/**
 * Declarative routing (BrowserRouter + useRoutes), its routes built from the remotes' route data
 * (routes.tsx): the shop uses no loaders or actions, so the data router, and its weight in every
 * page load, stays out of the shared react-router.
 */
export function App() {
  const { known, failed, retry, askAgain } = useKnownRoutes();
  const routes = useMemo(
    () => (known ? buildRoutes(known.routes, known.unavailable.length > 0 ? <Unreachable askAgain={askAgain} /> : undefined) : null),
    [known, askAgain],
  );
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
