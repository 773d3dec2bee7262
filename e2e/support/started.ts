import { expect, type Page } from '@playwright/test';

/**
 * Waits until the shell has started on the page: it hydrated the server's HTML or rendered the
 * page anew (`data-started` on #root). A server-rendered page loads its scripts after its load
 * event, so a journey that clicks a control only JavaScript serves waits for this first.
 */
export function shellStarted(page: Page): Promise<void> {
  return expect(page.locator('#root')).toHaveAttribute('data-started', /^(hydrated|rendered)$/, { timeout: 20_000 });
}
