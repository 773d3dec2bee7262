import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { attachmentInMail, belmareId, icsEvent, icsInstant, linkInMail, onMarinaClock, uniqueEmail } from '../support/sales';
import { shopUrl } from '../support/stack';

// A guest books a sea trial of the Belmare 64 Sport (a boat the shop lets shoppers sail) with a
// name and an e-mail address: the time is held, the e-mailed link books it, the invitation
// parses, and the admin's day shows a sea trial and the funnel counts it.

const SHOTS = process.env.BOATSHOP_SHOTS_DIR ?? '/work/shots';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

test("a guest books a sea trial of the Belmare 64 Sport, confirms it by the e-mail's link, and the admin's day shows it", async ({
  page,
  browser,
  signedInState,
}) => {
  test.slow();
  const email = uniqueEmail('sailor');
  await page.goto(`/product/${await belmareId(page)}`);
  await page.getByRole('button', { name: 'Book a viewing' }).click();
  await expect(page.getByText('A viewing takes 60 minutes.', { exact: false })).toBeVisible();
  await page.getByLabel('A sea trial (the boat sailed)').check();
  await expect(page.getByText('A sea trial takes 2 h 30 min.', { exact: false })).toBeVisible();

  // A time chosen at random: other runs of the journeys on the same database take some.
  const times = page.locator('input[name="viewing-slot"]');
  await expect(times.first()).toBeVisible();
  await times.nth(Math.floor(Math.random() * (await times.count()))).check();
  const bookButton = page.getByRole('button', { name: /^Book the sea trial on / });
  const label = ((await bookButton.textContent()) ?? '').replace('Book the sea trial on ', '');
  await page.getByLabel('Your name').fill('Sally Sailor');
  await page.getByLabel('Your e-mail').fill(email);
  await page.getByRole('region', { name: 'Book a viewing' }).screenshot({ path: `${SHOTS}/sales-sea-trial-panel.png` });
  expect(await seriousViolations(page)).toEqual([]);
  await bookButton.click();
  await expect(page.getByRole('status')).toContainText(`Open its link to confirm your sea trial on ${label}; we hold the time for you`);

  const confirmLink = await linkInMail(page, email, 'Confirm your sea trial of the Belmare 64 Sport', '/confirm-viewing');
  expect(new URL(confirmLink).origin).toBe(shopUrl());
  await page.goto(confirmLink);
  await expect(page.getByRole('status')).toContainText(`your sea trial of the Belmare 64 Sport is booked for ${label}`);
  await page.screenshot({ path: `${SHOTS}/sales-sea-trial-confirmed.png`, fullPage: true });

  // The invitation: a sea trial of two and a half hours at the marina's address, at the booked time.
  const ics = await attachmentInMail(page, email, `Your sea trial of the Belmare 64 Sport on ${label}`, 'viewing.ics');
  const event = icsEvent(ics);
  expect(event.SUMMARY).toBe('Sea trial of the Belmare 64 Sport');
  expect(event.LOCATION).toBe('Port Vauban, Antibes, Avenue de Verdun, 06600 Antibes, France');
  expect(onMarinaClock(event.DTSTART!)).toBe(label);
  const minutes = (icsInstant(event.DTEND!).getTime() - icsInstant(event.DTSTART!).getTime()) / 60_000;
  expect(minutes).toBe(150);

  // The admin's day at a glance shows the sea trial and the guest; the funnel counts this month's viewings.
  const adminContext = await browser.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
  const admin = await adminContext.newPage();
  await admin.goto('/admin/viewings');
  await admin.getByLabel('Day (DD/MM/YYYY)').first().fill(label.slice(0, 10));
  await admin.getByRole('button', { name: 'Show' }).click();
  const row = admin.getByRole('table', { name: 'Viewings of the day' }).getByRole('row', { name: /Sally Sailor/ });
  await expect(row).toContainText('Sea trial, 150 min');
  await expect(row).toContainText(label.slice(11));
  await admin.screenshot({ path: `${SHOTS}/sales-admin-day.png`, fullPage: true });
  expect(await seriousViolations(admin)).toEqual([]);

  await admin.goto('/admin/leads');
  const now = new Date();
  const month = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${now.getUTCFullYear()}`;
  const thisMonth = admin.getByRole('table', { name: 'Funnel per month' }).getByRole('row', { name: new RegExp(`^${month}`) });
  await expect(thisMonth).toBeVisible();
  const viewings = Number(await thisMonth.getByRole('cell').nth(1).textContent());
  expect(viewings).toBeGreaterThanOrEqual(1);
  await admin.getByLabel('Boat, buyer or e-mail').fill(email);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByRole('row', { name: /Sally Sailor/ })).toContainText('Viewing booked');
  await adminContext.close();
});
