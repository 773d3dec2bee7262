import { type ComponentType, type LazyExoticComponent, Suspense, lazy, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { RemoteErrorBoundary } from './remote-error-boundary';
import { loadRemotePage, type RemotePageRef } from './registry';
import { reportRemoteFailure } from './report-failure';

const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

/**
 * Pages loaded before the first render (`remote/Page` → component): the page the shell's server
 * rendered, loaded before hydrating so it renders at once, as on the server, and not behind a
 * Suspense fallback.
 */
const loadedPages = new Map<string, ComponentType>();

/** The page `remote/page` renders with this component, already loaded (hydration, and the server's frame). */
export function holdLoadedPage(ref: RemotePageRef, component: ComponentType): void {
  loadedPages.set(`${ref.remote}/${ref.page}`, component);
}

/**
 * One React.lazy per remote page. React.lazy remembers a failed import forever, so the error
 * boundary forgets a failed page once it has shown the failure (see RemotePage): the next
 * render (Retry, or coming back to the route) imports afresh. Forgetting it earlier, while
 * React still retries the render, would start a new import on every retry, without end.
 */
function lazyRemotePage(id: string, ref: RemotePageRef): LazyExoticComponent<ComponentType> {
  let component = lazyPages.get(id);
  if (!component) {
    component = lazy(() => loadRemotePage(ref.remote, ref.page));
    lazyPages.set(id, component);
  }
  return component;
}

/** A page of a remote, as the route data names it (see RemotePageRef). */
export function RemotePage({ remote, page }: RemotePageRef) {
  const { pathname } = useLocation();
  // Bumped by Retry so the boundary's children mount anew and look the page up again.
  const [attempt, setAttempt] = useState(0);
  const id = `${remote}/${page}`;
  const Page = loadedPages.get(id) ?? lazyRemotePage(id, { remote, page });
  return (
    <RemoteErrorBoundary
      resetKey={pathname}
      onError={() => {
        lazyPages.delete(id);
        loadedPages.delete(id);
        reportRemoteFailure(remote);
      }}
      onRetry={() => setAttempt((n) => n + 1)}
    >
      <Suspense
        fallback={
          <p className="shell-remote-loading" role="status">
            Loading…
          </p>
        }
      >
        {/* eslint-disable-next-line react-hooks/static-components -- not made during render: lazyRemotePage returns the module-level React.lazy of this page, the same one every render until a failed one is forgotten (then a fresh import is the point). */}
        <Page key={attempt} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
