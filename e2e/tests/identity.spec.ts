import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// Identity journeys: accounts, the session cookie, social sign-in through the local OpenID
// provider, password reset through the local SMTP server, and what the header and guards do
// with the session.

const PASSWORD = 'mizzen-mast-at-dawn';

/** A fresh e-mail per run: the stack's database lives as long as the whole suite. */
function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function expectSignedIn(page: Page) {
  await expect(mainNav(page).getByRole('button', { name: 'log out' })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'my account' })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: /^your cart \(\d+\)$/ })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'log in' })).toHaveCount(0);
}

async function expectSignedOut(page: Page) {
  await expect(mainNav(page).getByRole('link', { name: 'log in' })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'register' })).toBeVisible();
  await expect(mainNav(page).getByRole('button', { name: 'log out' })).toHaveCount(0);
  await expect(mainNav(page).getByRole('link', { name: 'my account' })).toHaveCount(0);
}

/** Who the API says is signed in for this request context's cookies. */
async function sessionUser(request: APIRequestContext) {
  const response = await request.get('/api/auth/session');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { user: { displayName: string; email: string; userRoles: string[] } | null }).user;
}

test.describe('a visitor with e-mail and password', () => {
  test('registers, is signed in, logs out (the server forgets the session) and logs in again', async ({ page, browser }) => {
    const email = uniqueEmail('sandy');
    await page.goto('/');
    await expectSignedOut(page);
    await mainNav(page).getByRole('link', { name: 'register' }).click();
    await expect(page.getByRole('heading', { name: 'sign up' })).toBeVisible();

    // The two checks the page lists above the form: its own and the API's.
    await page.getByLabel('Full Name').fill('Sandy Shopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill('mizzen-mast-at-dusk');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText("Passwords don't match!");

    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm Password').fill('password123');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('This password is too common. Choose one that is harder to guess.');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(`${shopUrl()}/`);
    await expectSignedIn(page);

    // The token lives only in the httpOnly cookie, never where a script could read it.
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const scriptVisible = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
    );
    expect(scriptVisible).not.toContain(session!.value);

    // A signed-in user has no business on the sign-in pages.
    await page.goto('/login');
    await expect(page).toHaveURL(`${shopUrl()}/`);
    await page.goto('/registration');
    await expect(page).toHaveURL(`${shopUrl()}/`);

    await mainNav(page).getByRole('link', { name: 'my account' }).click();
    await expect(page.getByRole('complementary', { name: 'Account' })).toContainText('Sandy Shopper');
    const cookiesBeforeLogout = await page.context().cookies();

    await mainNav(page).getByRole('button', { name: 'log out' }).click();
    await expectSignedOut(page);
    await expect(page).not.toHaveURL(/\/dashboard$/);

    // The old cookie, replayed from elsewhere, no longer opens the account.
    const replay = await browser.newContext({ baseURL: shopUrl() });
    await replay.addCookies(cookiesBeforeLogout);
    expect(await sessionUser(replay.request)).toBeNull();
    await replay.close();

    await page.goto('/registration');
    await page.getByLabel('Full Name').fill('Sandy Again');
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('An account with this e-mail already exists. Log in or reset your password.');

    await page.getByRole('link', { name: 'Already have an account? Log in' }).click();
    await expect(page.getByRole('heading', { name: 'log in' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.');
    await expectSignedOut(page);

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`${shopUrl()}/`);
    await expectSignedIn(page);
    // A reload asks the API again: the session survives it.
    await page.reload();
    await expectSignedIn(page);
  });

  test('sign-in pages have no accessibility violations', async ({ page }) => {
    for (const [path, heading] of [
      ['/login', 'log in'],
      ['/registration', 'sign up'],
      ['/password-reset', 'Reset password'],
      ['/password-reset/confirm?token=x', 'Choose a new password'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).include('main').analyze();
      expect(violations.map(({ id, help }) => `${path}: ${id}: ${help}`)).toEqual([]);
    }
  });
});

test.describe('social sign-in', () => {
  test('the Google button opens the account chooser in a popup, and the page is signed in afterwards', async ({ page }) => {
    await page.goto('/login');
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    const popup = await popupOpened;

    // prompt=select_account: the local provider always shows its chooser.
    await expect(popup.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
    const popupClosed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: /Grace Sailor/ }).click();
    await popupClosed;

    await expect(page).toHaveURL(`${shopUrl()}/`);
    await expectSignedIn(page);
    expect(await sessionUser(page.request)).toMatchObject({
      displayName: 'Grace Sailor',
      email: 'grace.sailor@example.com',
      userRoles: ['user'],
    });
  });
});

interface MailboxMessage {
  subject: string;
  text: string;
}

/** Polls the local SMTP server's mailbox: the API sends after it has answered. */
async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  let messages: MailboxMessage[] = [];
  await expect
    .poll(async () => {
      // Sign-up also sent a verification e-mail to this address.
      messages = ((await (await request.get(mailbox)).json()) as { messages: MailboxMessage[] }).messages.filter(
        (message) => message.subject === 'Reset your Boat shop password',
      );
      return messages.length;
    })
    .toBe(1);
  const link = messages[0]?.text.match(/https?:\/\/\S+\/password-reset\/confirm\?token=[\w-]+/)?.[0];
  expect(link, messages[0]?.text).toBeTruthy();
  return link!;
}

test.describe('a visitor who forgot the password', () => {
  test('asks for a link, receives it by e-mail, chooses a new password once, and logs in with it', async ({ page }) => {
    const email = uniqueEmail('forgetful');
    const csrf = await page.request.get('/api/auth/session');
    expect(csrf.ok()).toBe(true);
    const token = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')!.value;
    const registered = await page.request.post('/api/auth/register', {
      data: { displayName: 'Forgetful Fran', email, password: PASSWORD, confirmPassword: PASSWORD },
      headers: { 'x-csrf-token': token },
    });
    expect(registered.status()).toBe(201);
    // Registering signed this browser in (and renewed its csrf token); the journey starts signed out.
    const renewed = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')!.value;
    expect(renewed).not.toBe(token);
    expect((await page.request.post('/api/auth/logout', { headers: { 'x-csrf-token': renewed } })).status()).toBe(204);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Reset password' }).click();
    await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send email' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status')).toHaveText(
      'If an account exists for this e-mail, we have sent it a link to choose a new password.',
    );

    const link = await resetLinkFor(page.request, email);
    expect(new URL(link).origin).toBe(shopUrl());
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New Password', { exact: true }).fill('spinnaker-in-the-wind');
    await page.getByLabel('Confirm New Password').fill('spinnaker-in-the-wind');
    await page.getByRole('button', { name: 'Save new password' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status')).toHaveText('Your password has been changed. Log in with your new password.');

    // The link worked once.
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill('another-fine-password');
    await page.getByLabel('Confirm New Password').fill('another-fine-password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('This reset link is invalid, expired or already used. Ask for a new one.');

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('spinnaker-in-the-wind');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`${shopUrl()}/`);
    await expectSignedIn(page);
  });
});

test.describe('admin pages', () => {
  test('send a visitor to /login', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'log in' })).toBeVisible();
  });

  test.describe('for a signed-in shopper', () => {
    test.use({ role: 'shopper' });

    test('send the shopper away without loading anything of mf_admin, and show no My admin link', async ({ page, requestedUrls }) => {
      await page.goto('/');
      await expectSignedIn(page);
      await expect(page.getByRole('link', { name: 'My admin' })).toHaveCount(0);

      await page.goto('/admin');
      // /admin sends non-admins to /login, which sends a signed-in user on to /.
      await expect(page).toHaveURL(`${shopUrl()}/`);
      await expectSignedIn(page);
      const adminPort = String(stackPort('mf-admin'));
      expect(requestedUrls.filter((url) => new URL(url).port === adminPort)).toEqual([]);
      // The API refuses too, from its own records.
      expect((await page.request.get('/api/admin/products')).status()).toBe(403);
    });
  });

  test.describe('for an administrator', () => {
    test.use({ role: 'admin' });

    test('show the My admin link in the toolbar', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('navigation', { name: 'Admin toolbar' }).getByRole('link', { name: 'My admin' })).toBeVisible();
    });
  });
});
