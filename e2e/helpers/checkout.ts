import { expect, type Page } from '@playwright/test';
import type { Product } from '@boatshop/state';

// Paying through the shop's own pages and the local Stripe stand-in's card form, for the
// journeys that start with a paid order (checkout.spec, orders.spec).

export const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

// The oldest listed product is a seeded one: the admin journey, running in parallel, adds
// (newest) products and deletes them again, so the newest one can vanish mid-test. Two of it
// must stay under the card limit, hence the price cap.
export async function seededProduct(page: Page): Promise<Product> {
  const response = await page.request.get('/api/products?filterType=sailing-boats&limit=48');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: Product[] }).data.filter((p) => p.priceCents <= 40_000_000).at(-1)!;
}

/** Two of the product in the cart, through the product page and the cart's + button, then on to /payment. */
export async function fillCartAndCheckOut(page: Page, product: Product): Promise<void> {
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole('button', { name: `Increase quantity of ${product.name}` }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'your cart (2)' })).toBeVisible();
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/payment$/);
}

export async function fillAddresses(page: Page): Promise<void> {
  for (const [group, nameLabel] of [
    ['Shipping address', 'Recipient name'],
    ['Billing address', 'Card owner name'],
  ] as const) {
    const fields = page.getByRole('group', { name: group });
    await fields.getByLabel(nameLabel).fill('Sandy Shopper');
    await fields.getByLabel('Street').fill('1 Harbour Road');
    await fields.getByLabel('City').fill('Cork');
    await fields.getByLabel('Postal code').fill('T12 X2Y3');
    await fields.getByLabel('Country').selectOption('IE');
    await fields.getByLabel('County').selectOption({ label: 'Cork' });
  }
}

export async function fillCard(page: Page, number: string): Promise<void> {
  const card = page.getByRole('group', { name: 'Card details' });
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
}

/** Today as the browser writes it, DD/MM/YYYY in its own time zone. */
export function browserToday(page: Page): Promise<string> {
  return page.evaluate(() => {
    const now = new Date();
    return `${String(now.getDate()).padStart(2, '0')}/${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`;
  });
}
