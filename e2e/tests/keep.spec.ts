import type { Page } from '@playwright/test';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// Keep and compare: a shopper of this journey keeps a favourite, compares three boats and saves a
// search with e-mail alerts; an admin adds a matching boat; the day's alert run (an owner's
// POST /api/admin/jobs/saved-search-alerts, what the daily job runs) sends one e-mail listing it,
// and its unsubscribe link stops the alerts without signing in.

interface MailboxMessage {
  subject: string;
  text: string;
  listHeaders: Record<string, string>;
}

async function mailsTo(page: Page, email: string): Promise<MailboxMessage[]> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  return ((await (await page.request.get(mailbox)).json()) as { messages: MailboxMessage[] }).messages;
}

/** The csrf cookie's value once the page has settled (GET /api/auth/session sets it when missing). */
async function csrfOf(page: Page): Promise<string> {
  await page.waitForLoadState('networkidle');
  const read = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')?.value ?? '';
  if (!(await read())) await page.request.get('/api/auth/session');
  const token = await read();
  expect(token, 'the API set the csrf cookie').not.toBe('');
  return token;
}

const card = (page: Page, name: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });

test('a shopper keeps a favourite, compares three boats and saves a search; the alert lists the new boat once and its link unsubscribes', async ({
  page,
  playwright,
  signedInState,
}) => {
  test.slow();
  const adminState = await signedInState('admin');
  const catalogue = await CatalogueAdmin.open(playwright, adminState);
  const owner = await playwright.request.newContext({ baseURL: shopUrl(), storageState: adminState });
  try {
    // A shopper of this journey signs up (registration signs in).
    await page.goto('/');
    const stamp = Date.now().toString(36);
    const email = `keeper.${stamp}.${Math.floor(Math.random() * 1e6)}@example.com`;
    const registered = await page.request.post('/api/auth/register', {
      data: { displayName: 'Kim Keeper', email, password: 'mainsail-at-dawn', confirmPassword: 'mainsail-at-dawn' },
      headers: { 'x-csrf-token': await csrfOf(page) },
    });
    expect(registered.status(), await registered.text()).toBe(201);

    // A favourite: the heart on a card is a toggle button, pressed once kept.
    await page.goto('/search/yachts');
    const cards = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Add to cart' }) });
    await expect(cards.nth(3)).toBeVisible();
    const names = await cards.getByRole('link').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(4);
    const heart = card(page, names[0]!).getByRole('button', { name: `Favourite: ${names[0]}` });
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Favourites' }).click();
    await expect(page).toHaveURL(/\/account\/favourites$/);
    await page.getByRole('link', { name: names[0], exact: true }).click();
    // The product page's heart shows the shopper's own state once hydrated.
    await expect(page.getByRole('button', { name: `Favourite: ${names[0]}` })).toHaveAttribute('aria-pressed', 'true');
    await page.screenshot({ path: '/work/shots/keep-product.png' });

    // Compare: three boats side by side; a fourth is refused with a message.
    await page.goto('/search/yachts');
    for (const name of names.slice(0, 4))
      await card(page, name)
        .getByRole('button', { name: `Compare: ${name}` })
        .click();
    const tray = page.getByRole('complementary', { name: 'Compare boats' });
    await expect(tray.getByRole('status')).toHaveText('You can compare up to 3 boats. Remove one before adding another.');
    await expect(card(page, names[3]!).getByRole('button', { name: `Compare: ${names[3]}` })).toHaveAttribute('aria-pressed', 'false');
    await page.screenshot({ path: '/work/shots/keep-tray.png', fullPage: false });
    await tray.getByRole('link', { name: 'Compare side by side' }).click();
    await expect(page).toHaveURL(/\/compare\?ids=/);
    const table = page.getByRole('table');
    for (const name of names.slice(0, 3))
      await expect(table.getByRole('columnheader').getByRole('link', { name, exact: true })).toBeVisible();
    await expect(table.getByRole('rowheader', { name: 'Length overall' })).toBeVisible();
    await page.screenshot({ path: '/work/shots/keep-compare.png', fullPage: true });
    // The address alone shows the same boats (a shared link).
    const shared = page.url();
    await page.goto('/');
    await page.goto(shared);
    await expect(page.getByRole('columnheader')).toHaveCount(3);

    // A saved search with alerts, for boats named like the one the admin is about to add.
    const word = `Keepsake${stamp}`;
    await page.goto(`/search/yachts?q=${word}`);
    await expect(page.getByText('No search results.')).toBeVisible();
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.getByLabel('Name of the search').fill(`My ${word}`);
    await expect(page.getByLabel('E-mail me when a boat matching my saved searches comes in.')).toBeChecked();
    await page.screenshot({ path: '/work/shots/keep-save-search.png' });
    await page.getByRole('button', { name: 'Save search' }).click();
    await expect(page.getByText(`Saved “My ${word}”.`)).toBeVisible();

    // An admin adds a matching boat and a sold one; the day's alert run sends one e-mail.
    const boat = await catalogue.add(`${word} 52 Flybridge`, 1_250_000_00);
    await catalogue.add(`${word} sold twin`, 990_000_00, 0);
    const csrf = (await owner.storageState()).cookies.find((cookie) => cookie.name === 'csrf')!.value;
    const run = () => owner.post('/api/admin/jobs/saved-search-alerts', { headers: { 'x-csrf-token': csrf } });
    const first = await run();
    expect(first.status(), await first.text()).toBe(200);
    // At least this shopper's search (other journeys' saved searches may be due as well).
    expect((await first.json()).sent).toBeGreaterThanOrEqual(1);
    expect((await (await run()).json()).sent).toBe(0);
    const subject = `New boats for your saved search “My ${word}”`;
    await expect
      .poll(async () => (await mailsTo(page, email)).filter((mail) => mail.subject === subject).length, { timeout: 30_000 })
      .toBe(1);
    const [alert] = (await mailsTo(page, email)).filter((mail) => mail.subject === subject);
    expect(alert!.text).toContain(boat.name);
    expect(alert!.text).not.toContain('sold twin');
    expect(alert!.listHeaders['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // The e-mail's link stops the alerts, without signing in (a fresh browser context).
    const link = new URL(alert!.text.match(/https?:\/\/\S+\/alerts\/unsubscribe\?token=\S+/)![0]);
    const stranger = await page.context().browser()!.newContext({ baseURL: shopUrl() });
    try {
      const strangerPage = await stranger.newPage();
      await strangerPage.goto(`${link.pathname}${link.search}`);
      await expect(strangerPage.getByRole('status')).toHaveText(`You will get no more e-mails for the saved search “My ${word}”.`);
      await strangerPage.screenshot({ path: '/work/shots/keep-unsubscribed.png' });
    } finally {
      await stranger.close();
    }
    await page.goto('/account/saved-searches');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `My ${word}` }) });
    await expect(row.getByRole('cell', { name: 'Off' })).toBeVisible();
    await page.screenshot({ path: '/work/shots/keep-saved-searches.png' });
  } finally {
    await owner.dispose();
    await catalogue.close();
  }
});
