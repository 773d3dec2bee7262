import type { Page } from '@playwright/test';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { fillAddresses, fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';
import { shopUrl } from '../support/stack';

// Stock: a used boat exists once. The demo shopper buys the last unit while another
// shopper (a visitor of the shop, in a browser of their own) has the same boat in the cart; the
// boat then shows as sold to everyone and the other cart says what happened.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

const addButton = (page: Page) => page.getByRole('button', { name: 'Add to cart' });
const cartLine = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });

test.describe('a used boat with one unit', () => {
  test.use({ role: 'shopper' });

  let admin: CatalogueAdmin;
  test.beforeEach(async ({ playwright, signedInState }) => {
    admin = await CatalogueAdmin.open(playwright, await signedInState('admin'));
  });
  test.afterEach(async () => {
    await admin.close();
  });

  test('is bought by one shopper with card 4242; another sees it sold and is told it left their cart', async ({ page, browser }) => {
    const boat = await admin.add(`Used Nordvik 27 ${Date.now()}`, 3_890_000, 1);

    // The other shopper puts the boat in their cart first.
    // A guest: browser.newContext() would otherwise start from the demo shopper's stored login.
    const other = await browser.newContext({ baseURL: shopUrl(), storageState: { cookies: [], origins: [] } });
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(`/product/${boat.id}`);
      await expect(otherPage.getByText('Only 1 left')).toBeVisible();
      await addButton(otherPage).click();
      await expect(otherPage).toHaveURL(/\/cart$/);
      await expect(cartLine(otherPage, boat.name)).toBeVisible();

      // The demo shopper buys it.
      await page.goto(`/product/${boat.id}`);
      await addButton(page).click();
      await expect(page).toHaveURL(/\/cart$/);
      await page.getByRole('button', { name: 'Checkout' }).click();
      await expect(page.getByText(`Amount to pay: ${euro.format(3_890_000 / 100)}`)).toBeVisible();
      await fillAddresses(page);
      await fillCard(page, '4242 4242 4242 4242');
      await page.getByRole('button', { name: 'Pay now' }).click();
      await expect(page.getByText('Thank you, your payment was received.')).toBeVisible();

      // Sold for everyone: the other shopper cannot add it, and the list can leave it out.
      await otherPage.goto(`/product/${boat.id}`);
      await expect(otherPage.getByRole('heading', { name: boat.name })).toBeVisible();
      await expect(otherPage.getByText('Sold', { exact: true })).toBeVisible();
      await expect(addButton(otherPage)).toBeDisabled();

      await otherPage.goto('/search/yachts');
      const card = otherPage.getByRole('listitem').filter({ has: otherPage.getByRole('link', { name: boat.name }) });
      await expect(card.getByText('Sold', { exact: true })).toBeVisible();
      await expect(card.getByRole('button', { name: 'Add to cart' })).toBeDisabled();
      // The server's list is on screen before the page is hydrated, and a click before hydration
      // has committed may be undone by it: the journey ticks the box until the address follows.
      const hideSold = otherPage.getByRole('checkbox', { name: 'Hide sold boats' });
      await expect(async () => {
        if (!(await hideSold.isChecked())) await hideSold.check({ timeout: 2_000 });
        await expect(otherPage).toHaveURL(/\/search\/yachts\?available=1$/, { timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await expect(addButton(otherPage).first()).toBeVisible();
      await expect(otherPage.getByRole('link', { name: boat.name })).toHaveCount(0);

      // Their cart tells them, as it does for a price change, and no longer holds the boat.
      await otherPage.goto('/cart');
      await expect(
        otherPage
          .getByRole('status')
          .filter({ hasText: `${boat.name} has just been sold to another buyer and was removed from your cart.` }),
      ).toBeVisible();
      await expect(cartLine(otherPage, boat.name)).toHaveCount(0);
    } finally {
      await other.close();
    }
  });
});
