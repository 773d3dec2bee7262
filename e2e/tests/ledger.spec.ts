import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { AdminOrder, CreatePaymentResponse, Order, Product } from '@boatshop/contract';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { fillAddresses, fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';
import { payForAnOrder } from '../support/paid-order';
import { shopUrl, stackPort } from '../support/stack';

// The money ledger's journeys (docs/ledger.md): money and boats stay accounted for when a payment
// leaves the happy path. Each yacht here is a one-off boat of the journey's own (stock 1, above the
// card limit of 999.999,99 €, so it is reserved with a deposit), made through the admin API.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);
const refOf = (orderId: string) => orderId.slice(0, 8).toUpperCase();

const YACHT_CENTS = 150_000_000;
const DEPOSIT_CENTS = 15_000_000;
/** The stand-in's secret key: its dashboard and fault routes take it, as Stripe's API does. */
const STRIPE_AUTH = { authorization: 'Bearer sk_test_dev' };
const stripeUrl = (path: string) => `http://127.0.0.1:${stackPort('dev-stripe')}${path}`;

/** The shopper puts `boat` in the cart and reaches the payment page with the addresses filled in. */
async function checkOut(page: Page, boat: Product): Promise<void> {
  await page.goto(`/product/${boat.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await fillAddresses(page);
}

/** Presses "Pay deposit of …" with `card` and answers what the API said about the checkout. */
async function payDeposit(page: Page, card: string): Promise<CreatePaymentResponse> {
  await fillCard(page, card);
  const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
  await page.getByRole('button', { name: `Pay deposit of ${price(DEPOSIT_CENTS)}` }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  return (await answer.json()) as CreatePaymentResponse;
}

/**
 * A GET of the shop's API, answered: on the shared machine the API may shed load for a moment
 * (503 OVERLOADED, retry in a few seconds), which is not what these journeys test.
 */
async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  let body: T | undefined;
  await expect(async () => {
    const response = await request.get(url);
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
    body = (await response.json()) as T;
  }).toPass({ timeout: 20_000 });
  return body!;
}

async function orderStatus(request: APIRequestContext, orderId: string): Promise<string> {
  return (await getJson<Order>(request, `/api/orders/${orderId}`)).status;
}

/** A browser context signed in as the demo admin, and its CSRF token for API calls. */
async function adminPage(browser: Browser, storageState: string): Promise<{ admin: Page; csrf: string }> {
  const context = await browser.newContext({ baseURL: shopUrl(), storageState });
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrf')?.value;
  expect(csrf, 'the stored admin login holds the csrf cookie').toBeTruthy();
  return { admin: await context.newPage(), csrf: csrf! };
}

function adminOrder(admin: Page, orderId: string): Promise<AdminOrder> {
  return getJson<AdminOrder>(admin.request, `/api/admin/orders/${orderId}`);
}

/** The payment intent that paid the order (its card payment line). */
async function paidIntent(admin: Page, orderId: string): Promise<string> {
  const payment = (await adminOrder(admin, orderId)).payments.find((line) => line.method === 'card' && line.status === 'succeeded');
  expect(payment?.providerReference, 'the order has a succeeded card payment').toBeTruthy();
  return payment!.providerReference!;
}

test.describe('the money ledger', () => {
  test.use({ role: 'shopper' });

  let catalogue: CatalogueAdmin;
  test.beforeEach(async ({ playwright, signedInState }) => {
    catalogue = await CatalogueAdmin.open(playwright, await signedInState('admin'));
  });
  test.afterEach(async () => {
    await catalogue.close();
  });

  test('a deposit declined once and then paid keeps the yacht reserved: a second shopper sees it Reserved and cannot add it', async ({
    page,
    browser,
  }) => {
    const boat = await catalogue.add(`Ledger Declined Then Paid ${Date.now()}`, YACHT_CENTS, 1);
    await checkOut(page, boat);

    // The first card is declined: the page says so and the order is failed, never paid.
    const declined = await payDeposit(page, '4000 0000 0000 0002');
    expect(declined).toMatchObject({ mode: 'deposit', amountCents: DEPOSIT_CENTS });
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page).toHaveURL(/\/payment$/);
    await expect.poll(() => orderStatus(page.request, declined.orderId)).toBe('failed');

    // The same checkout paid with a good card: the deposit is received and the yacht is reserved.
    const paid = await payDeposit(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(new RegExp(`/order/${paid.orderId}$`));
    await expect(page.getByText('Thank you, your deposit was received.', { exact: false })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: /^Reserved$/ })).toBeVisible();

    // The catalogue holds the yacht for this order: a second shopper (an account of its own) sees it
    // Reserved, cannot put it in the cart, and the API refuses to hold it for them.
    // Without cookies: a context made inside a test inherits its stored login, and signing up
    // there would end the demo shopper's session that the worker's other journeys use.
    const other = await browser.newContext({ baseURL: shopUrl(), storageState: { cookies: [], origins: [] } });
    try {
      const second = await other.newPage();
      await second.request.get('/api/auth/session');
      const csrf = (await other.cookies()).find((cookie) => cookie.name === 'csrf')!.value;
      const email = `ledger-second-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
      const password = 'second-shopper-passphrase';
      const registered = await second.request.post('/api/auth/register', {
        data: { displayName: 'Second Shopper', email, password, confirmPassword: password },
        headers: { 'x-csrf-token': csrf },
      });
      expect(registered.status(), await registered.text()).toBe(201);
      await second.goto(`/product/${boat.id}`);
      await expect(second.getByRole('heading', { name: boat.name })).toBeVisible();
      await expect(second.getByText('Reserved', { exact: true })).toBeVisible();
      await expect(second.getByRole('button', { name: 'Add to cart' })).toBeDisabled();
      const listed = await getJson<Product>(second.request, `/api/products/${boat.id}`);
      expect(listed.availability).toBe('reserved');
    } finally {
      await other.close();
    }
  });

  test('a disputed deposit shows the admin the money at risk, and the order can neither take the balance nor be shipped', async ({
    page,
    browser,
    signedInState,
  }) => {
    const boat = await catalogue.add(`Ledger Disputed Deposit ${Date.now()}`, YACHT_CENTS, 1);
    await checkOut(page, boat);
    const { orderId } = await payDeposit(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
    await expect(page.getByRole('definition').filter({ hasText: /^Reserved$/ })).toBeVisible();
    const order = await getJson<Order>(page.request, `/api/orders/${orderId}`);

    const { admin, csrf } = await adminPage(browser, await signedInState('admin'));
    try {
      // The cardholder's bank disputes the deposit (the stand-in's dashboard), and tells the shop by webhook.
      const intent = await paidIntent(admin, orderId);
      const disputed = await admin.request.post(stripeUrl(`/_dashboard/payment_intents/${intent}/dispute`), {
        headers: STRIPE_AUTH,
        form: { reason: 'fraudulent' },
      });
      expect(disputed.ok(), await disputed.text()).toBe(true);
      await expect.poll(async () => (await adminOrder(admin, orderId)).status).toBe('disputed');

      // The admin's order page: the ledger says what is at risk; no action would take the balance or ship.
      await admin.goto(`/admin/orders/${orderId}`);
      await expect(admin.getByRole('heading', { level: 1, name: `Order ${refOf(orderId)}` })).toBeVisible();
      await expect(
        admin.getByRole('status').filter({ hasText: `Money at risk: ${price(DEPOSIT_CENTS)} is disputed at the cardholder's bank.` }),
      ).toBeVisible();
      const ledger = admin.getByRole('region', { name: 'Ledger' });
      await expect(ledger.getByRole('row').filter({ hasText: 'Dispute opened' })).toContainText(price(DEPOSIT_CENTS));
      const actions = admin.getByRole('group', { name: 'Order actions' });
      await expect(actions.getByRole('button', { name: 'Record bank transfer' })).toHaveCount(0);
      await expect(admin.getByRole('button', { name: 'Mark shipped' })).toHaveCount(0);

      // Asked directly, the API refuses both: the balance on a disputed deposit, and shipping.
      const transfer = await admin.request.post('/api/admin/bank-transfers', {
        data: {
          reference: order.balance!.reference,
          amountCents: YACHT_CENTS - DEPOSIT_CENTS,
          receivedOn: new Date().toISOString().slice(0, 10),
          bankReference: `E2E-DISPUTE-${orderId.slice(0, 8)}`,
        },
        headers: { 'x-csrf-token': csrf },
      });
      expect(transfer.status(), await transfer.text()).toBe(409);
      const ship = await admin.request.post(`/api/admin/orders/${orderId}/ship`, { data: {}, headers: { 'x-csrf-token': csrf } });
      expect(ship.status(), await ship.text()).toBe(409);
      expect((await adminOrder(admin, orderId)).status).toBe('disputed');
      await admin.screenshot({ path: '/work/shots/ledger21-disputed-deposit.png', fullPage: true }).catch(() => undefined);
    } finally {
      await admin.context().close();
    }
  });

  test('a refund whose answer the provider never sent is retried and refunds once', async ({ page, browser, signedInState }) => {
    const { orderId } = await payForAnOrder(page);
    const ref = refOf(orderId);
    const { admin } = await adminPage(browser, await signedInState('admin'));
    try {
      const intent = await paidIntent(admin, orderId);
      // The provider carries out the next refund requests but cuts each connection before its
      // answer: the API's client and its own retries (two, same key) all time out.
      const fault = await admin.request.post(stripeUrl('/_faults/drop-response'), { form: { path: '/v1/refunds', count: '3' } });
      expect(fault.ok(), await fault.text()).toBe(true);

      await admin.goto(`/admin/orders/${orderId}`);
      await admin.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = admin.getByRole('dialog', { name: `Refund order ${ref}` });
      await dialog.getByLabel('Amount to refund').fill('10');
      await dialog.getByRole('button', { name: `Refund ${price(1_000)}` }).click();
      // No answer: the admin is told the refund stays pending and will be made once.
      await expect(dialog.getByRole('alert')).toHaveText(
        'The payment service did not answer. The refund stays pending and is checked with the payment service; it will be made once.',
        { timeout: 30_000 },
      );

      // The admin presses Refund again (the same refund, the same key): the provider is asked with
      // the key of the first attempt and answers the refund it made then.
      await dialog.getByRole('button', { name: `Refund ${price(1_000)}` }).click();
      await expect(admin.getByRole('status').filter({ hasText: `${price(1_000)} of order ${ref} was refunded.` })).toBeVisible();

      // Once at the provider, once in the shop.
      const listed = await admin.request.get(stripeUrl(`/v1/refunds?payment_intent=${intent}&limit=100`), { headers: STRIPE_AUTH });
      expect(listed.ok(), await listed.text()).toBe(true);
      const refunds = ((await listed.json()) as { data: { amount: number; status: string }[] }).data;
      expect(refunds.map((refund) => [refund.amount, refund.status])).toEqual([[1_000, 'succeeded']]);
      const booked = await adminOrder(admin, orderId);
      expect(booked.status).toBe('partially_refunded');
      expect(booked.refunds.map((refund) => [refund.amountCents, refund.status])).toEqual([[1_000, 'succeeded']]);
      await page.goto(`/order/${orderId}`);
      await expect(page.getByText(new RegExp(`^Refunded ${price(1_000)} on`))).toHaveCount(1);
    } finally {
      await admin.context().close();
    }
  });
});
