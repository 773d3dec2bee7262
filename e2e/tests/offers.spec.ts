import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Order } from '@boatshop/contract';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { fillAddresses, fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// Offers: the admin sends an offer of 2.750.000,00 € on a shopper's question about a
// 2.890.000,00 € yacht; the shopper accepts it in the account, reserves the yacht with a
// 275.000,00 € deposit, and the order's total is the offer's price. An offer past its validity
// (the demo shopper's seeded Seahaven 58 Flybridge offer) cannot be accepted.
//
// The yacht is the journey's own (CatalogueAdmin), bought by a shopper registered for the
// journey: no other journey's boat or shopper's open checkout is touched.

const SHOTS = process.env.BOATSHOP_SHOTS_DIR ?? '/work/shots';
const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);

const YACHT_CENTS = 289_000_000;
const OFFER_CENTS = 275_000_000;
const DEPOSIT_CENTS = 27_500_000;

/** Serious and critical axe findings in the page's content. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** The first link to `path` in the newest mail to `email` with this subject, once it arrived. */
async function linkInMail(page: Page, email: string, subject: string, path: string): Promise<string> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  let link = '';
  await expect
    .poll(async () => {
      const { messages } = (await (await page.request.get(mailbox)).json()) as { messages: { subject: string; text: string }[] };
      link = messages.find((message) => message.subject === subject)?.text.match(new RegExp(`https?://\\S+${path}\\S*`))?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

/** The csrf cookie's value once the page has settled (GET /api/auth/session sets it when missing). */
async function csrfOf(page: Page): Promise<string> {
  // The shell's own session request may still be setting it: a token read before would not match.
  await page.waitForLoadState('networkidle');
  const read = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')?.value ?? '';
  if (!(await read())) await page.request.get('/api/auth/session');
  const token = await read();
  expect(token, 'the API set the csrf cookie').not.toBe('');
  return token;
}

test('the admin offers 2.750.000,00 € for the 2.890.000,00 € yacht; the shopper accepts and reserves it with a 275.000,00 € deposit at the offer’s price', async ({
  page,
  browser,
  playwright,
  signedInState,
}) => {
  test.slow();
  const catalogue = await CatalogueAdmin.open(playwright, await signedInState('admin'));
  try {
    const name = `Offerta 64 ${Date.now().toString(36)}`;
    const yacht = await catalogue.add(name, YACHT_CENTS, 1);

    // A shopper of this journey signs up and asks about the yacht on its page.
    await page.goto('/');
    const email = `offer.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
    const registered = await page.request.post('/api/auth/register', {
      data: { displayName: 'Olivia Offer', email, password: 'mainsail-at-dawn', confirmPassword: 'mainsail-at-dawn' },
      headers: { 'x-csrf-token': await csrfOf(page) },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    // A proven e-mail address, as holding a one-off boat may ask for.
    await page.goto(await linkInMail(page, email, 'Confirm your Boat shop e-mail address', '/verify-email'));
    await expect(page.getByRole('status')).toHaveText('Your e-mail address is confirmed. Thank you!');
    await page.goto(`/product/${yacht.id}`);
    await page.getByRole('button', { name: 'Ask a question' }).click();
    await page.getByLabel(`Your question about the ${name}`).fill('Would you take less than the asking price?');
    await page.getByRole('button', { name: 'Send question' }).click();
    await expect(page.getByRole('status')).toBeVisible();

    // The admin opens the lead and sends the offer.
    const adminContext = await browser.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
    const admin = await adminContext.newPage();
    await admin.goto('/admin/leads');
    await admin.getByLabel('Boat, buyer or e-mail').fill(name);
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByRole('link', { name }).first().click();
    await expect(admin.getByText('Would you take less than the asking price?')).toBeVisible();
    await admin.getByLabel('Price in euros (VAT included)').fill('2.750.000,00');
    await admin.getByLabel('Conditions').fill('Survey and sea trial at Antibes before completion.');
    await admin.getByRole('button', { name: 'Send offer' }).click();
    const sentOffer = admin.getByTestId('admin-offer');
    await expect(sentOffer).toContainText(price(OFFER_CENTS));
    await expect(sentOffer).toContainText('Waiting for the buyer');
    await expect(admin.getByText('Offer sent', { exact: true }).first()).toBeVisible();
    await admin.screenshot({ path: `${SHOTS}/offers-admin-lead.png`, fullPage: true });
    expect(await seriousViolations(admin)).toEqual([]);

    // The shopper sees it in the conversation and accepts it: the checkout opens at its price.
    await page.goto('/messages');
    await page.getByRole('link', { name }).click();
    const offer = page.getByTestId('offer');
    await expect(offer).toContainText(price(OFFER_CENTS));
    await expect(offer).toContainText('Survey and sea trial at Antibes before completion.');
    await page.screenshot({ path: `${SHOTS}/offers-conversation.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await offer.getByRole('button', { name: 'Accept offer' }).click();
    await expect(page).toHaveURL(/\/payment\/offer\/[0-9a-f-]{36}$/);
    await expect(page.getByText(`at the agreed price of ${price(OFFER_CENTS)}`)).toBeVisible();
    const pay = page.getByRole('button', { name: `Pay deposit of ${price(DEPOSIT_CENTS)}` });
    await expect(pay).toBeVisible();
    await fillAddresses(page);
    await fillCard(page, '4242424242424242');
    await page.screenshot({ path: `${SHOTS}/offers-payment.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await pay.click();
    await expect(page).toHaveURL(/\/order\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const orderId = page.url().split('/').pop()!;

    // The order's total is the offer's price, reserved by the deposit.
    await expect
      .poll(async () => ((await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order).status, { timeout: 30_000 })
      .toBe('reserved');
    const order = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order;
    expect(order.totalCents).toBe(OFFER_CENTS);
    expect(order.items.map((item) => [item.unitPriceCents, item.quantity])).toEqual([[OFFER_CENTS, 1]]);
    await page.screenshot({ path: `${SHOTS}/offers-order.png`, fullPage: true });

    // The admin's lead shows the order.
    await admin.reload();
    await expect(admin.getByTestId('admin-offer')).toContainText('Ordered');
    await adminContext.close();
  } finally {
    await catalogue.close();
  }
});

test.describe('an offer past its validity', () => {
  test.use({ role: 'shopper' });

  test('shows as expired and cannot be accepted', async ({ page }) => {
    await page.goto('/messages');
    await page.getByRole('link', { name: 'Seahaven 58 Flybridge' }).first().click();
    const offer = page.getByTestId('offer').first();
    await expect(offer).toContainText('This offer expired after');
    await expect(offer.getByRole('button', { name: 'Accept offer' })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/offers-expired.png`, fullPage: true });

    // Asked anyway (a page left open since before it expired): refused, clearly.
    const conversation = page.url().split('/').pop()!;
    const listed = await page.request.get(`/api/offers?enquiryId=${conversation}`);
    const [expired] = ((await listed.json()) as { data: { id: string; expired: boolean }[] }).data;
    expect(expired?.expired).toBe(true);
    const refused = await page.request.post(`/api/offers/${expired!.id}/accept`, { headers: { 'x-csrf-token': await csrfOf(page) } });
    expect(refused.status()).toBe(410);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'This offer has expired: its validity has ended. Please ask the shop for a new offer.',
    );
  });
});

test('a shopper books a viewing of the Belmare 64 Sport at Port Vauban; the .ics invitation is in the mailbox and parses', async ({
  page,
  browser,
  signedInState,
}) => {
  test.slow();
  await page.goto('/');
  const email = `viewer.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await page.request.post('/api/auth/register', {
    data: { displayName: 'Vera Viewer', email, password: 'mainsail-at-dawn', confirmPassword: 'mainsail-at-dawn' },
    headers: { 'x-csrf-token': await csrfOf(page) },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const found = await page.request.get('/api/products', { params: { q: 'Belmare 64 Sport' } });
  const belmare = ((await found.json()) as { data: { id: string; name: string }[] }).data.find((p) => p.name === 'Belmare 64 Sport')!;

  await page.goto(`/product/${belmare.id}`);
  await page.getByRole('button', { name: 'Book a viewing' }).click();
  await expect(page.getByText('At Port Vauban, Antibes, Avenue de Verdun, 06600 Antibes, France.')).toBeVisible();
  // A free time late in the list: other runs of this journey on the same database take the first ones.
  const times = page.locator('input[name="viewing-slot"]');
  await expect(times.first()).toBeVisible();
  const count = await times.count();
  await times.nth(Math.floor(Math.random() * count)).check();
  const bookButton = page.getByRole('button', { name: /^Book the viewing on / });
  const label = ((await bookButton.textContent()) ?? '').replace('Book the viewing on ', '');
  await page.screenshot({ path: `${SHOTS}/offers-viewing-slots.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await bookButton.click();
  await expect(page.getByRole('status')).toContainText(`Your viewing is booked for ${label} at Port Vauban, Antibes.`);

  // The invitation arrives, and its event is the booked time at the marina's address.
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  let ics = '';
  await expect
    .poll(async () => {
      const { messages } = (await (await page.request.get(mailbox)).json()) as {
        messages: { subject: string; attachments?: { filename: string; content: string }[] }[];
      };
      const mail = messages.find((message) => message.subject === `Your viewing of the Belmare 64 Sport on ${label}`);
      // The dev mailbox keeps each attachment's bytes in base64, as a mail client receives them.
      const file = mail?.attachments?.find((attachment) => attachment.filename === 'viewing.ics');
      ics = file ? Buffer.from(file.content, 'base64').toString('utf8') : '';
      return ics;
    })
    .not.toBe('');
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  const field = (name: string) => lines.find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`))?.replace(/^[^:]+:/, '');
  expect(field('LOCATION')?.replace(/\\,/g, ',')).toBe('Port Vauban, Antibes, Avenue de Verdun, 06600 Antibes, France');
  const start = field('DTSTART')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
  const onMarinaClock = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(new Date(start))
    .replace(',', '');
  expect(onMarinaClock).toBe(label);

  // The account's viewing page, and the admin's day at a glance.
  await page.getByRole('link', { name: 'Reschedule or cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Viewing of the Belmare 64 Sport' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/offers-viewing-account.png`, fullPage: true });
  const adminContext = await browser.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
  const admin = await adminContext.newPage();
  await admin.goto('/admin/viewings');
  await admin.getByLabel('Day (DD/MM/YYYY)').first().fill(label.slice(0, 10));
  await admin.getByRole('button', { name: 'Show' }).click();
  await expect(admin.getByRole('table', { name: 'Viewings of the day' })).toContainText('Vera Viewer');
  await admin.screenshot({ path: `${SHOTS}/offers-admin-viewings.png`, fullPage: true });
  // The lead's timeline shows the viewing; "Propose a viewing" drafts the marina's next free times.
  await admin
    .getByRole('row', { name: /Vera Viewer/ })
    .getByRole('link', { name: 'Belmare 64 Sport' })
    .click();
  await expect(admin.getByText(`Viewing booked by Vera Viewer (${label})`)).toBeVisible();
  await admin.getByRole('button', { name: 'Propose a viewing' }).click();
  await expect(admin.getByLabel('Proposal to the buyer')).toHaveValue(/at Port Vauban, Antibes/);
  await admin.screenshot({ path: `${SHOTS}/offers-admin-lead-viewing.png`, fullPage: true });
  await adminContext.close();

  // Cancelled, the time is free again.
  await page.getByRole('button', { name: 'Cancel the viewing' }).click();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
});
