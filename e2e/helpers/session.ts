import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

import { DEMO_ACCOUNTS, type DemoRole } from '../../api/src/db/seed/demo-accounts';

export { DEMO_ACCOUNTS, type DemoRole };

/**
 * Signs the page's browser context in through the API (not the login form), for journeys
 * whose subject is something else. page.request shares the context's cookies, so the
 * httpOnly session cookie lands where the shop will read it.
 */
export async function signInAs(page: Page, role: DemoRole): Promise<void> {
  await signInWith(page, DEMO_ACCOUNTS[role]);
}

export async function signInWith(page: Page, credentials: { email: string; password: string }): Promise<void> {
  // The session call sets the CSRF cookie that every state-changing request must echo. A page
  // that has just loaded asks for its session too; when neither request carried a cookie, each
  // answer sets a different token, and the page's could land between reading the cookie and the
  // login below. So: let the page's own requests settle, and plant a token when there is none
  // (every later answer keeps a well-formed token).
  expect(page.url(), 'sign in from a page of the shop (goto it first)').toMatch(/^https?:/);
  await page.waitForLoadState('networkidle');
  const shop = new URL(page.url()).origin;
  if (!(await page.context().cookies(shop)).some((cookie) => cookie.name === 'csrf')) {
    const token = randomBytes(32).toString('base64url');
    await page.context().addCookies([{ name: 'csrf', value: token, url: shop, sameSite: 'Strict' }]);
  }
  const session = await page.request.get('/api/auth/session');
  expect(session.status(), `GET /api/auth/session: ${await session.text()}`).toBe(200);
  const cookies = await page.context().cookies(shop);
  const csrf = cookies.find((cookie) => cookie.name === 'csrf')?.value;
  expect(csrf, 'the API sets a csrf cookie on GET /api/auth/session').toBeTruthy();
  const response = await page.request.post('/api/auth/login', {
    data: { email: credentials.email, password: credentials.password },
    headers: { 'x-csrf-token': csrf! },
  });
  expect(response.status(), await response.text()).toBe(200);
}
