import { DEMO_ACCOUNTS } from '../helpers/session';
import { expect, expectPage, test } from './fixture';

// mf-admin's main pages for an administrator. The account is SMOKE_ADMIN_EMAIL /
// SMOKE_ADMIN_PASSWORD (an admin of the environment the shell serves), by default the demo
// admin the API seeds outside production. Signed in through the API, then nothing is changed.

test('admin: products and orders pages', async ({ page }) => {
  const email = process.env.SMOKE_ADMIN_EMAIL ?? DEMO_ACCOUNTS.admin.email;
  const password = process.env.SMOKE_ADMIN_PASSWORD ?? DEMO_ACCOUNTS.admin.password;
  const session = await page.request.get('/api/auth/session');
  expect(session.ok(), 'GET /api/auth/session').toBe(true);
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')?.value;
  const login = await page.request.post('/api/auth/login', { data: { email, password }, headers: { 'x-csrf-token': csrf ?? '' } });
  expect(login.status(), `sign-in of the smoke admin ${email} (SMOKE_ADMIN_EMAIL / SMOKE_ADMIN_PASSWORD)`).toBe(200);

  await page.goto('/admin');
  await expectPage(page, 'Manage products');
  await page.goto('/admin/orders');
  await expectPage(page, 'Orders');
});
