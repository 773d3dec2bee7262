import { startTransition, type ComponentType, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { ServerRenderedBlock } from '@boatshop/web-shared/server-pages';
import { takeServerRendered } from './remotes/page-data';
import { givenRoutes, loadRemoteModule } from './remotes/registry';
import { holdLoadedPage } from './remotes/remote-page';

/** How long the page the server rendered waits for its remote module before the browser renders it anew. */
export const HYDRATION_LOAD_DEADLINE_MS = 15_000;

/**
 * Makes the server's render of the page hydratable: the route data came with the page, the address
 * is the one the server rendered, the remote's module for it loads (before hydrating, so the page
 * renders at once, as on the server) and accepts the server's data (`hydrateWith` sets its
 * stores as the server's render had them). Throws with the reason otherwise.
 */
export async function prepareHydration(rendered: ServerRenderedBlock, location: { pathname: string; search: string }): Promise<void> {
  if (rendered.url !== `${location.pathname}${location.search}`) throw new Error(`the server rendered ${rendered.url}`);
  if (!givenRoutes()) throw new Error('the page came without its route data');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('the remote page did not load in time')), HYDRATION_LOAD_DEADLINE_MS);
  });
  const module = await Promise.race([loadRemoteModule(rendered.remote, rendered.module), deadline]).finally(() => clearTimeout(timer));
  const page = module.default;
  const hydrateWith = module.hydrateWith;
  // A release from before hydration renders on the server (for <noscript>) but cannot take the data.
  if (typeof hydrateWith !== 'function') throw new Error(`${rendered.remote}/${rendered.module} cannot hydrate`);
  if (typeof page !== 'function' && (typeof page !== 'object' || page === null)) {
    throw new Error(`${rendered.remote}/${rendered.module} has no default export`);
  }
  if ((hydrateWith as (url: string, data: unknown) => unknown)(rendered.url, rendered.data) !== true) {
    throw new Error('the server’s data does not fit the page');
  }
  holdLoadedPage({ remote: rendered.remote, page: rendered.module }, page as ComponentType);
}

/**
 * Starts the app in #root: hydrates the server's render of the page when there is one and
 * everything it needs is there, else (no server render, the remote unavailable, its data not
 * fitting) clears the server's HTML and renders from scratch, as without server rendering.
 */
export async function startApp(
  root: HTMLElement,
  app: ReactNode,
  location: { pathname: string; search: string } = window.location,
): Promise<'hydrated' | 'rendered'> {
  const rendered = takeServerRendered();
  if (rendered && root.firstElementChild) {
    try {
      // Each step ends its task before the next (the shell's modules have just run; then the
      // remote's page module; then hydration), so a tap meanwhile is answered between them
      // instead of waiting for all three in one long task.
      await yieldToBrowser();
      await prepareHydration(rendered, location);
      await yieldToBrowser();
      // As a transition, React hydrates in slices of a few milliseconds, yielding to the browser
      // between them, instead of in one long task (the page already shows; a click on a part not
      // yet hydrated hydrates that part first).
      startTransition(() => {
        hydrateRoot(root, app, {
          onRecoverableError: (error) => console.error('hydration: the server-rendered page did not match; React rendered it anew', error),
        });
      });
      return 'hydrated';
    } catch (error) {
      console.warn('The server-rendered page is rendered anew in the browser:', error instanceof Error ? error.message : error);
    }
  }
  root.replaceChildren();
  createRoot(root).render(app);
  return 'rendered';
}

/** Ends the current task: `scheduler.yield()` where the browser has it (it resumes first), else a zero timeout. */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
