import type { Page } from '@playwright/test';
import type { Product } from '@boatshop/contract';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { expect, test } from '../support/fixtures';

// Cart refresh: the cart shown again takes the catalogue's names and prices and tells the shopper what
// changed. An administrator changes the catalogue through the admin API while the shopper's cart
// holds the products; each journey makes its own products so the seeded ones stay as they are.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);

async function addToCart(page: Page, product: Product): Promise<void> {
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(cartLine(page, product.name)).toBeVisible();
}

const cartLine = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
const cartCount = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^your cart/ });
const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test.describe('a shopper whose cart the catalogue changed under', () => {
  test.use({ role: 'shopper' });

  let admin: CatalogueAdmin;
  test.beforeEach(async ({ playwright, signedInState }) => {
    admin = await CatalogueAdmin.open(playwright, await signedInState('admin'));
  });
  test.afterEach(async () => {
    await admin.close();
  });

  test('a product removed from the catalogue while in the cart', async ({ page }) => {
    const stamp = Date.now();
    const removed = await admin.add(`Refresh Hallberg ${stamp}`, 1_000_000);
    const kept = await admin.add(`Refresh Aldren ${stamp}`, 2_000_000);
    await addToCart(page, removed);
    await addToCart(page, kept);
    await page.getByRole('button', { name: `Increase quantity of ${kept.name}` }).click();
    await expect(page.getByText(`Total: ${price(1_000_000 + 2 * 2_000_000)}`)).toBeVisible();
    await expect(cartCount(page)).toHaveText('your cart (3)');
    // Nothing changed yet: no notice.
    await expect(page.getByRole('button', { name: 'Dismiss cart notices' })).toHaveCount(0);

    await admin.remove(removed);
    await page.reload();

    const removedNotice = notice(page, `${removed.name} is no longer sold and was removed from your cart.`);
    await expect(removedNotice).toBeVisible();
    await expect(cartLine(page, removed.name)).toHaveCount(0);
    await expect(page.getByText(`Total: ${price(2 * 2_000_000)}`)).toBeVisible();
    await expect(cartCount(page)).toHaveText('your cart (2)');

    // Dismissed, it stays away: neither a change of quantity nor the next visit brings it back.
    await page.getByRole('button', { name: 'Dismiss cart notices' }).click();
    await expect(removedNotice).toHaveCount(0);
    await page.getByRole('button', { name: `Decrease quantity of ${kept.name}` }).click();
    await expect(page.getByText(`Total: ${price(2_000_000)}`)).toBeVisible();
    await page.reload();
    await expect(cartLine(page, kept.name)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Dismiss cart notices' })).toHaveCount(0);
    await expect(removedNotice).toHaveCount(0);
  });

  test('a price changed while in the cart', async ({ page }) => {
    const boat = await admin.add(`Refresh Sloop ${Date.now()}`, 1_234_567);
    await addToCart(page, boat);
    await page.getByRole('button', { name: `Increase quantity of ${boat.name}` }).click();
    await expect(page.getByText(`Total: ${price(2 * 1_234_567)}`)).toBeVisible();

    await admin.setPrice(boat, 1_500_000);
    await page.reload();

    await expect(notice(page, `The price of ${boat.name} changed from ${price(1_234_567)} to ${price(1_500_000)}.`)).toBeVisible();
    await expect(cartLine(page, boat.name)).toContainText(price(1_500_000));
    await expect(page.getByText(`Total: ${price(2 * 1_500_000)}`)).toBeVisible();
    await expect(cartCount(page)).toHaveText('your cart (2)');

    // The payment page asks for what the refreshed cart shows.
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByText(`Amount to pay: ${price(2 * 1_500_000)}`)).toBeVisible();
  });
});
