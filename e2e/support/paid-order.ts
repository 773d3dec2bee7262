import type { Page } from '@playwright/test';
import type { CreatePaymentResponse, Product } from '@boatshop/contract';
import { fillAddresses, fillCard } from './checkout-forms';
import { expect } from './fixtures';

/**
 * A seeded boat any number of shoppers can buy: the oldest listed (journeys running alongside
 * add and delete newer ones) that is built to order (no `stock`), since a one-off boat is sold
 * after one order (stock), and within the card limit of 999.999,99 €.
 */
async function boatBuiltToOrder(page: Page): Promise<Product> {
  const response = await page.request.get('/api/products?filterType=sailing-boats&limit=48');
  expect(response.status(), await response.text()).toBe(200);
  const products = ((await response.json()) as { data: (Product & { stock?: number | null })[] }).data;
  return products.filter((product) => (product.stock === undefined || product.stock === null) && product.priceCents <= 40_000_000).at(-1)!;
}

/** The shopper buys one boat through the product page, the cart and 4242…, and lands on the paid order's page. */
export async function payForAnOrder(page: Page): Promise<{ orderId: string; totalCents: number }> {
  const product = await boatBuiltToOrder(page);
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await fillAddresses(page);
  await fillCard(page, '4242 4242 4242 4242');
  const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
  await page.getByRole('button', { name: 'Pay now' }).click();
  const { orderId, totalCents } = (await (await created).json()) as CreatePaymentResponse;
  await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
  await expect(page.getByText('Thank you, your payment was received.')).toBeVisible();
  return { orderId, totalCents };
}
