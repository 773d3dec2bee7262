import { expect, type Page } from '@playwright/test';

// Demo accounts the API seeds on an empty database (see api/README.md).
export const DEMO_ACCOUNTS = {
  shopper: { email: 'shopper@example.com', password: 'boats-ahoy-2024', displayName: 'Sandy Shopper' },
  admin: { email: 'admin@example.com', password: 'admin-ahoy-2024', displayName: 'Ada Admin' },
  sales: { email: 'sales@example.com', password: 'sales-ahoy-2024', displayName: 'Sam Sales' },
  accountant: { email: 'accountant@example.com', password: 'ledger-ahoy-2024', displayName: 'Alex Accountant' },
  editor: { email: 'editor@example.com', password: 'editor-ahoy-2024', displayName: 'Eddie Editor' },
} as const;

export type DemoRole = keyof typeof DEMO_ACCOUNTS;

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
  expect(session.ok()).toBe(true);
  const cookies = await page.context().cookies();
  const csrf = cookies.find((cookie) => cookie.name === 'csrf')?.value;
  expect(csrf, 'the API sets a csrf cookie on GET /api/auth/session').toBeTruthy();
  const response = await page.request.post('/api/auth/login', {
    data: { email: credentials.email, password: credentials.password },
    headers: { 'x-csrf-token': csrf! },
  });
  expect(response.status(), await response.text()).toBe(200);
}
