import type { Page } from '@playwright/test';
import type { CreatePaymentResponse, Order, OrderSummary, Product } from '@boatshop/contract';
import { fillAddresses, fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';

// The demo shopper pays for a filled cart through the local Stripe stand-in, the default offline.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

// The oldest listed product is a seeded one: the admin journey, running in parallel, adds
// (newest) products and deletes them again, so the newest one can vanish mid-test. Two of it
// must stay under the card limit, hence the price cap.
async function seededProduct(page: Page): Promise<Product> {
  const response = await page.request.get('/api/products?filterType=sailing-boats&limit=48');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: Product[] }).data.filter((p) => p.priceCents <= 40_000_000).at(-1)!;
}

/** Two of the product in the cart, through the product page and the cart's + button, then on to /payment. */
async function fillCartAndCheckOut(page: Page, product: Product): Promise<void> {
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole('button', { name: `Increase quantity of ${product.name}` }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'your cart (2)' })).toBeVisible();
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/payment$/);
}

test.describe('checkout', () => {
  test.use({ role: 'shopper' });

  test('pays for the cart with 4242 4242 4242 4242 and finds the order in the history with its date, id and amount', async ({
    page,
    requestedUrls,
  }) => {
    const product = await seededProduct(page);
    const amount = euro.format((2 * product.priceCents) / 100);
    await fillCartAndCheckOut(page, product);
    await expect(page.getByText(`Amount to pay: ${amount}`)).toBeVisible();

    // Nothing is sent while a field is empty.
    const creates: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/payments/create')) creates.push(request.url());
    });
    const quoted = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/payments/quote') && (response.request().postData() ?? '').includes('"shippingCountry":"IE"'),
    );
    await fillAddresses(page);
    await page.getByRole('button', { name: 'Pay now' }).click();
    expect(creates).toEqual([]);

    // With the shipping country known the page shows what this buyer pays, as the server quotes
    // it: a new boat delivered to another member state is sold without VAT, so check the charge
    // against the amount shown rather than the catalogue price.
    const quote = (await (await quoted).json()) as { totalCents: number };
    const amountToPay = euro.format(quote.totalCents / 100);
    await expect(page.getByText(/^Amount to pay:/)).toContainText(amountToPay);

    await fillCard(page, '4242 4242 4242 4242');
    const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
    await page.getByRole('button', { name: 'Pay now' }).click();
    const { orderId, totalCents } = (await (await created).json()) as CreatePaymentResponse;
    expect(totalCents).toBe(quote.totalCents);
    expect(totalCents).toBeLessThanOrEqual(2 * product.priceCents);

    await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
    await expect(page.getByText('Thank you, your payment was received.')).toBeVisible();
    await expect(page.getByRole('heading', { name: `Order ${orderId}` })).toBeVisible();
    const line = page.getByRole('row').filter({ has: page.getByRole('cell', { name: product.name, exact: true }) });
    await expect(line.getByRole('img', { name: product.name })).toBeVisible();
    await expect(line.getByRole('cell')).toHaveText(['', product.name, euro.format(product.priceCents / 100), '2']);
    await expect(page.getByText(`Total: ${amountToPay}`)).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'your cart (0)' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'my account' }).click();
    await expect(page.getByRole('heading', { name: 'Order history' })).toBeVisible();
    // Today as the browser writes it, DD/MM/YYYY in its own time zone.
    const today = await page.evaluate(() => {
      const now = new Date();
      return `${String(now.getDate()).padStart(2, '0')}/${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`;
    });
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: orderId }) });
    await expect(row.getByRole('cell')).toHaveText([today, orderId, amountToPay, 'Paid']);
    // Newest first. Journeys on the other worker may pay with the demo shopper meanwhile, so the
    // order is found by its id, and the order of the list is checked on the dates.
    const history = (await (await page.request.get('/api/orders')).json()) as { data: OrderSummary[] };
    expect(history.data.find((order) => order.id === orderId)).toMatchObject({ status: 'paid' });
    const placed = history.data.map((order) => Date.parse(order.createdAt));
    expect(placed).toEqual([...placed].sort((a, b) => b - a));

    await row.getByRole('link', { name: orderId }).click();
    await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
    await expect(page.getByRole('heading', { name: `Order ${orderId}` })).toBeVisible();
    await expect(page.getByText('Thank you, your payment was received.')).toBeHidden();

    // The stand-in's card form, not Stripe Elements: nothing of Stripe.js was fetched.
    expect(requestedUrls.filter((url) => /stripe-js|js\.stripe\.com/.test(url))).toEqual([]);
  });

  test('shows why a declined card (4000 0000 0000 0002) failed, keeps the cart and leaves no paid order', async ({ page }) => {
    const product = await seededProduct(page);
    await fillCartAndCheckOut(page, product);
    await fillAddresses(page);
    await fillCard(page, '4000 0000 0000 0002');

    const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
    await page.getByRole('button', { name: 'Pay now' }).click();
    const { orderId } = (await (await created).json()) as CreatePaymentResponse;

    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'your cart (2)' })).toBeVisible();
    // The order is failed once the provider's webhook (or the page's confirmation) arrives; never paid.
    await expect.poll(async () => ((await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order).status).toBe('failed');
    const history = (await (await page.request.get('/api/orders')).json()) as { data: OrderSummary[] };
    expect(history.data.map((order) => order.id)).not.toContain(orderId);
  });

  test('sends a shopper with an empty cart from /payment to the dashboard', async ({ page }) => {
    await page.goto('/payment');

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Order history' })).toBeVisible();
  });
});
