import type { OrderSummaryList } from '@boatshop/contract';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { fillAddresses, fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';
import { belmareId, csrfIn, newShopper } from '../support/sales';
import { shellStarted } from '../support/started';
import { shopUrl } from '../support/stack';

// Races a person can make in the browser: two shoppers pressing Book for the same viewing time
// at once (one gets it, the other is told and offered the next times), and an offer's Accept
// and Pay each double-clicked (one accepted offer, one order at the offer's price).

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);

test('two shoppers booking the same viewing time at once: one booking, the other is told and offered the next times', async ({
  browser,
}) => {
  test.slow();
  const shoppers = [await newShopper(browser, 'Rita Racer'), await newShopper(browser, 'Ralf Racer')];
  try {
    const productUrl = `/product/${await belmareId(shoppers[0]!.page)}`;
    for (const { page } of shoppers) {
      await page.goto(productUrl);
      await shellStarted(page);
      await page.getByRole('button', { name: 'Book a viewing' }).click();
      await expect(page.locator('input[name="viewing-slot"]').first()).toBeVisible();
    }
    // The same time, chosen at random among those both see (other journeys take some).
    const [first, second] = shoppers.map((shopper) => shopper.page);
    const times = first!.locator('input[name="viewing-slot"]');
    const startsAt = (await times.nth(Math.floor(Math.random() * (await times.count()))).getAttribute('value'))!;
    for (const page of [first!, second!]) await page.locator(`input[name="viewing-slot"][value="${startsAt}"]`).check();
    const buttons = [first!, second!].map((page) => page.getByRole('button', { name: /^Book the viewing on / }));
    const label = ((await buttons[0]!.textContent()) ?? '').replace('Book the viewing on ', '');

    await Promise.all(buttons.map((button) => button.click()));

    const outcome = async (page: typeof first) => {
      const booked = page!.getByRole('status').filter({ hasText: `Your viewing is booked for ${label}` });
      const told = page!.getByRole('alert').filter({ hasText: 'Someone has just booked this time.' });
      await expect(booked.or(told)).toBeVisible();
      return (await booked.count()) > 0 ? 'booked' : 'told';
    };
    const outcomes = [await outcome(first), await outcome(second)];
    expect([...outcomes].sort()).toEqual(['booked', 'told']);
    const loserPage = outcomes[0] === 'told' ? first! : second!;
    // The loser's list no longer offers the taken time, and names the next ones.
    await expect(loserPage.getByRole('alert')).toContainText('The next free times are');
    await expect(loserPage.locator(`input[name="viewing-slot"][value="${startsAt}"]`)).toHaveCount(0);
    await loserPage.screenshot({ path: `${process.env.BOATSHOP_SHOTS_DIR ?? '/work/shots'}/sales-slot-taken.png`, fullPage: true });

    // One booking of that time between the two accounts.
    const mine = await Promise.all(
      shoppers.map(
        async ({ page }) =>
          ((await (await page.request.get('/api/viewings')).json()) as { data: { startsAt: string; status: string }[] }).data,
      ),
    );
    expect(mine.flat().filter((viewing) => viewing.startsAt === startsAt && viewing.status === 'booked')).toHaveLength(1);
  } finally {
    for (const { context } of shoppers) await context.close();
  }
});

test('an offer accepted with a double click and paid with a double click makes one order at the offer’s price', async ({
  browser,
  playwright,
  signedInState,
}) => {
  test.slow();
  const YACHT_CENTS = 289_000_000;
  const OFFER_CENTS = 275_000_000;
  const DEPOSIT_CENTS = 27_500_000;
  const catalogue = await CatalogueAdmin.open(playwright, await signedInState('admin'));
  const shopper = await newShopper(browser, 'Dora Double', { verify: true });
  const adminApi = await playwright.request.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
  try {
    const name = `Doppio 64 ${Date.now().toString(36)}`;
    const yacht = await catalogue.add(name, YACHT_CENTS, 1);
    const { page } = shopper;

    // The shopper's question and the shop's offer, through the API: the journey is about the answer.
    const asked = await page.request.post('/api/enquiries', {
      data: { productId: yacht.id, message: 'Would you take 2.750.000,00 €?' },
      headers: { 'x-csrf-token': await csrfIn(shopper.context) },
    });
    expect(asked.status(), await asked.text()).toBe(202);
    const leadId = ((await asked.json()) as { id: string }).id;
    const adminCsrf = (await adminApi.storageState()).cookies.find((cookie) => cookie.name === 'csrf')!.value;
    const validUntil = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const sent = await adminApi.post(`/api/admin/leads/${leadId}/offers`, {
      data: { priceCents: OFFER_CENTS, validUntil, conditions: 'Survey before completion.' },
      headers: { 'x-csrf-token': adminCsrf },
    });
    expect(sent.status(), await sent.text()).toBe(201);

    await page.goto(`/messages/${leadId}`);
    const offer = page.getByTestId('offer');
    await expect(offer).toContainText(price(OFFER_CENTS));
    await offer.getByRole('button', { name: 'Accept offer' }).dblclick();
    await expect(page).toHaveURL(/\/payment\/offer\/[0-9a-f-]{36}$/);
    const pay = page.getByRole('button', { name: `Pay deposit of ${price(DEPOSIT_CENTS)}` });
    await expect(pay).toBeVisible();
    await fillAddresses(page);
    await fillCard(page, '4242424242424242');
    await pay.dblclick();
    await expect(page).toHaveURL(/\/order\/[0-9a-f-]{36}$/, { timeout: 30_000 });

    // One accepted offer, one order, and its total is the offer's price.
    const offers = (await (await page.request.get(`/api/offers?enquiryId=${leadId}`)).json()) as { data: { state: string }[] };
    expect(offers.data.map((o) => o.state)).toEqual(['accepted']);
    await expect
      .poll(async () => ((await (await page.request.get('/api/orders')).json()) as OrderSummaryList).data.length, { timeout: 15_000 })
      .toBe(1);
    const orders = ((await (await page.request.get('/api/orders')).json()) as OrderSummaryList).data;
    expect(orders).toHaveLength(1);
    expect(orders[0]!.totalCents).toBe(OFFER_CENTS);
  } finally {
    await adminApi.dispose();
    await shopper.context.close();
    await catalogue.close();
  }
});
