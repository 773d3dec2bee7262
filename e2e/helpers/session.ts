import { expect, type Page } from '@playwright/test';

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
  // The session call sets the CSRF cookie that every state-changing request must echo.
  const session = await page.request.get('/api/auth/session');
  expect(session.status(), `GET /api/auth/session: ${await session.text()}`).toBe(200);
  const cookies = await page.context().cookies();
  const csrf = cookies.find((cookie) => cookie.name === 'csrf')?.value;
  expect(csrf, 'the API sets a csrf cookie on GET /api/auth/session').toBeTruthy();
  const response = await page.request.post('/api/auth/login', {
    data: { email: credentials.email, password: credentials.password },
    headers: { 'x-csrf-token': csrf! },
  });
  expect(response.status(), await response.text()).toBe(200);
}
