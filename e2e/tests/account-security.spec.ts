import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// The account's own security, on the dashboard: confirming the e-mail address with the link from
// the (local) mailbox, resending it, changing the password, and logging out of every device.

const PASSWORD = 'mizzen-mast-at-dawn';
const NEW_PASSWORD = 'spinnaker-in-the-wind';

function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Registers through the API and leaves the page's browser signed in as the new account. */
async function registerThroughApi(page: Page, email: string, displayName: string): Promise<void> {
  expect((await page.request.get('/api/auth/session')).ok()).toBe(true);
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')!.value;
  const registered = await page.request.post('/api/auth/register', {
    data: { displayName, email, password: PASSWORD, confirmPassword: PASSWORD },
    headers: { 'x-csrf-token': csrf },
  });
  expect(registered.status()).toBe(201);
}

async function sessionUser(request: APIRequestContext) {
  const response = await request.get('/api/auth/session');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { user: { email: string; emailVerified: boolean } | null }).user;
}

/** The account pages' axe findings inside main, named so a failure says what to fix. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  return violations.map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** The verification links in the local mailbox for an address, newest first, once `count` have arrived. */
async function verificationLinks(request: APIRequestContext, email: string, count: number): Promise<string[]> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  let links: string[] = [];
  await expect
    .poll(async () => {
      const { messages } = (await (await request.get(mailbox)).json()) as { messages: { subject: string; text: string }[] };
      links = messages
        .filter((message) => message.subject === 'Confirm your Boat shop e-mail address')
        .map((message) => message.text.match(/https?:\/\/\S+\/verify-email\?token=[\w-]+/)?.[0] ?? '');
      return links.length;
    })
    .toBe(count);
  expect(links.every(Boolean), links.join('\n')).toBe(true);
  return links;
}

test('a new account is marked unverified until the link from the e-mail confirms it, also after a resend', async ({ page }) => {
  const email = uniqueEmail('vera');
  await page.goto('/registration');
  await page.getByLabel('Full Name').fill('Vera Verify');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(`${shopUrl()}/`);

  // The account can shop, and the dashboard says the address is not confirmed yet.
  await page.goto('/dashboard');
  const notice = page.getByRole('region', { name: 'Your e-mail address is not verified' });
  await expect(notice).toContainText(email);
  await expect(page.getByRole('button', { name: 'Log out of all devices' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const [signUpLink] = await verificationLinks(page.request, email, 1);

  await notice.getByRole('button', { name: 'Resend the e-mail' }).click();
  await expect(notice.getByRole('status')).toHaveText('We have sent you a new link to confirm your e-mail address.');
  const [resentLink] = await verificationLinks(page.request, email, 2);
  expect(resentLink).not.toBe(signUpLink);
  expect(new URL(resentLink!).origin).toBe(shopUrl());

  await page.goto(resentLink!);
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Your e-mail address is confirmed. Thank you!');
  expect(await axeViolations(page)).toEqual([]);
  expect(await sessionUser(page.request)).toMatchObject({ email, emailVerified: true });

  await page.getByRole('link', { name: 'Go to my account' }).click();
  await expect(page.getByRole('heading', { name: 'Order history' })).toBeVisible();
  await expect(page.getByText('Your e-mail address is not verified')).toHaveCount(0);

  // The first link was spent along with the one used.
  await page.goto(signUpLink!);
  await expect(page.getByRole('alert')).toHaveText(
    'This confirmation link is invalid, expired or already used. Ask for a new one from your account page.',
  );
});

test('changing the password logs the other devices out; "Log out of all devices" logs out this one too', async ({ page, browser }) => {
  const email = uniqueEmail('cass');
  await registerThroughApi(page, email, 'Cass Change');

  // The same account on a second device.
  const phone = await browser.newContext({ baseURL: shopUrl() });
  const phonePage = await phone.newPage();
  await phonePage.goto('/login');
  await phonePage.getByLabel('Email').fill(email);
  await phonePage.getByLabel('Password').fill(PASSWORD);
  await phonePage.getByRole('button', { name: 'Log in' }).click();
  await expect(phonePage).toHaveURL(`${shopUrl()}/`);
  expect(await sessionUser(phone.request)).toMatchObject({ email });

  await page.goto('/dashboard');
  const form = page.getByRole('region', { name: 'Change password' });
  await form.getByLabel('Current Password').fill('not-my-password');
  await form.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('Your current password is wrong.');

  await form.getByLabel('Current Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('status')).toHaveText('Your password has been changed. Other devices have been logged out.');

  // This browser stays signed in; the phone is out.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Order history' })).toBeVisible();
  expect(await sessionUser(phone.request)).toBeNull();

  // The phone signs in again, with the new password only.
  await phonePage.goto('/login');
  await phonePage.getByLabel('Email').fill(email);
  await phonePage.getByLabel('Password').fill(PASSWORD);
  await phonePage.getByRole('button', { name: 'Log in' }).click();
  await expect(phonePage.getByRole('alert')).toHaveText('Wrong e-mail or password.');
  await phonePage.getByLabel('Password').fill(NEW_PASSWORD);
  await phonePage.getByRole('button', { name: 'Log in' }).click();
  await expect(phonePage).toHaveURL(`${shopUrl()}/`);
  expect(await sessionUser(phone.request)).toMatchObject({ email });

  await page.getByRole('button', { name: 'Log out of all devices' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status')).toHaveText('You have been logged out on all devices.');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'log in' })).toBeVisible();
  expect(await sessionUser(page.request)).toBeNull();
  expect(await sessionUser(phone.request)).toBeNull();
  await phone.close();
});

test("someone else's sign-up with the owner's address: the owner's click asks for a password, which ends the squatter's access", async ({
  page,
  browser,
}) => {
  // The squatter signs up with the owner's address and stays signed in.
  const email = uniqueEmail('olive');
  await registerThroughApi(page, email, 'Not Olive');
  const [link] = await verificationLinks(page.request, email, 1);

  // The owner opens the link from the mailbox in a browser of their own: the address is confirmed
  // only with a password the owner chooses.
  const owner = await browser.newContext({ baseURL: shopUrl(), storageState: { cookies: [], origins: [] } });
  try {
    const ownerPage = await owner.newPage();
    await ownerPage.goto(link!);
    await expect(ownerPage.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
    await expect(ownerPage.getByText('This account was not opened in this browser.', { exact: false })).toBeVisible();
    expect(await sessionUser(page.request)).toMatchObject({ email, emailVerified: false });
    const form = ownerPage.getByRole('form', { name: 'Choose a password' });
    await form.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    expect(await axeViolations(ownerPage)).toEqual([]);
    await form.getByRole('button', { name: 'Save password and confirm' }).click();
    await expect(ownerPage.getByRole('status')).toHaveText(
      'Your e-mail address is confirmed and your password is saved. Log in with your new password.',
    );
    await ownerPage.screenshot({ path: '/work/shots/ledger21-verify-set-password.png' }).catch(() => undefined);

    // The squatter's browser is signed out, and their password no longer opens the account.
    expect(await sessionUser(page.request)).toBeNull();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.');

    // The owner logs in with the password they chose, the address confirmed.
    await ownerPage.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await ownerPage.getByLabel('Email').fill(email);
    await ownerPage.getByLabel('Password').fill(NEW_PASSWORD);
    await ownerPage.getByRole('button', { name: 'Log in' }).click();
    await expect(ownerPage).toHaveURL(`${shopUrl()}/`);
    expect(await sessionUser(owner.request)).toMatchObject({ email, emailVerified: true });
  } finally {
    await owner.close();
  }
});
