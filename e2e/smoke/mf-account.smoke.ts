import { expect, expectPage, test } from './fixture';

// mf-account's main pages for a visitor: log in and sign up render their forms (nothing is sent).

test('account: the log-in page', async ({ page }) => {
  await page.goto('/login');
  await expectPage(page, 'log in');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});

test('account: the registration page', async ({ page }) => {
  await page.goto('/registration');
  await expectPage(page, 'sign up');
  await expect(page.getByLabel('Full Name')).toBeVisible();
  await expect(page.getByLabel('Confirm Password')).toBeVisible();
});
