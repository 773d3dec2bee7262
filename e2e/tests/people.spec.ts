import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { CreatePaymentResponse, Order, Product } from '@boatshop/contract';
import { signInAs } from '../helpers/session';
import { fillCard } from '../support/checkout-forms';
import { downloadInvoice } from '../support/invoice-pdf';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// People: a new shopper keeps an address book and checks out with it in one click, takes an
// export of their data by the e-mailed link, and erases the account by another link.

const PASSWORD = 'mizzen-mast-at-dawn';
const SHOTS = '/work/shots';

/** A fresh e-mail per run: the stack's database lives as long as the whole suite. */
function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

const csrfOf = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')!.value;

/** The first link in the newest mail to `email` with this subject, once it arrived (the export job runs every minute). */
async function linkInMail(request: APIRequestContext, email: string, subject: string, path: string): Promise<string> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  let link = '';
  await expect
    .poll(
      async () => {
        const { messages } = (await (await request.get(mailbox)).json()) as { messages: { subject: string; text: string }[] };
        const mail = messages.find((message) => message.subject === subject);
        link = mail?.text.match(new RegExp(`https?://\\S+${path}\\S*`))?.[0] ?? '';
        return link;
      },
      { timeout: 150_000, intervals: [1_000, 2_000, 5_000] },
    )
    .not.toBe('');
  return link;
}

/** The oldest listed sailing boat under the card limit: a seeded one that other journeys leave alone. */
async function seededProduct(page: Page): Promise<Product> {
  const response = await page.request.get('/api/products?filterType=sailing-boats&limit=48');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: Product[] }).data.filter((p) => p.priceCents <= 40_000_000).at(-1)!;
}

async function addAddress(page: Page, kind: 'Shipping' | 'Billing', name: string, street: string): Promise<void> {
  await page.getByRole('button', { name: 'Add an address' }).click();
  const form = page.getByRole('form', { name: 'New address' });
  await form.getByLabel(kind).check();
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Street').fill(street);
  await form.getByLabel('City').fill('Cork');
  await form.getByLabel('Postal code').fill('T12 X2Y3');
  await form.getByLabel('Country').selectOption('IE');
  await form.getByLabel('County').selectOption({ label: 'Cork' });
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByRole('status')).toHaveText('The address was saved.');
}

/** The demo admin ships and delivers the order through the API, so the account has nothing open. */
async function shipAndDeliver(browser: Browser, signedInState: (role: 'admin') => Promise<string>, orderId: string): Promise<void> {
  const context = await browser.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
  const admin = await context.newPage();
  await admin.request.get('/api/auth/session');
  const headers = { 'x-csrf-token': await csrfOf(admin) };
  const shipped = await admin.request.post(`/api/admin/orders/${orderId}/ship`, {
    data: { carrier: 'DHL', trackingNumber: 'E2E1' },
    headers,
  });
  expect(shipped.status(), await shipped.text()).toBe(200);
  const delivered = await admin.request.post(`/api/admin/orders/${orderId}/deliver`, { data: {}, headers });
  expect(delivered.status(), await delivered.text()).toBe(200);
  await context.close();
}

test('a shopper saves two addresses, checks out with them in one click, exports their data by e-mail and erases the account', async ({
  page,
  browser,
  signedInState,
}) => {
  test.setTimeout(300_000);
  const email = uniqueEmail('addie');

  // Registering through the API signs this browser in.
  await page.request.get('/api/auth/session');
  const registered = await page.request.post('/api/auth/register', {
    data: { displayName: 'Addie Addresses', email, password: PASSWORD, confirmPassword: PASSWORD },
    headers: { 'x-csrf-token': await csrfOf(page) },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  // Only a verified account may hold a one-off boat at checkout.
  await page.goto(await linkInMail(page.request, email, 'Confirm your Boat shop e-mail address', '/verify-email'));
  await expect(page.getByRole('status')).toHaveText('Your e-mail address is confirmed. Thank you!');

  // The address book: one shipping and one billing address, each its kind's default.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Addresses' }).click();
  await expect(page).toHaveURL(/\/account\/addresses$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Addresses' })).toBeVisible();
  await addAddress(page, 'Shipping', 'Addie Addresses', '7 Marina Quay');
  await addAddress(page, 'Billing', 'Addie Boats Ltd', '12 Office Park');
  const shippingList = page.getByRole('region', { name: 'Shipping addresses' });
  await expect(shippingList.getByRole('listitem')).toHaveCount(1);
  await expect(shippingList.getByRole('listitem').getByText('Default')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Billing addresses' }).getByText('12 Office Park')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/people-addresses.png`, fullPage: true });

  // Checkout fills both in: the card is all the shopper adds before the one click on Pay now.
  const product = await seededProduct(page);
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/payment$/);
  const shipping = page.getByRole('group', { name: 'Shipping address' });
  const billing = page.getByRole('group', { name: 'Billing address' });
  await expect(shipping.getByLabel('Street')).toHaveValue('7 Marina Quay');
  await expect(shipping.getByLabel('County')).toHaveValue('CO');
  await expect(billing.getByLabel('Card owner name')).toHaveValue('Addie Boats Ltd');
  await expect(billing.getByLabel('Street')).toHaveValue('12 Office Park');
  await fillCard(page, '4242 4242 4242 4242');
  await page.screenshot({ path: `${SHOTS}/people-checkout.png`, fullPage: true });
  const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
  await page.getByRole('button', { name: 'Pay now' }).click();
  const { orderId } = (await (await created).json()) as CreatePaymentResponse;
  await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
  await expect(page.getByText('Thank you, your payment was received.')).toBeVisible();
  const order = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order;
  expect(order.shipping).toEqual({
    name: 'Addie Addresses',
    address: { line1: '7 Marina Quay', city: 'Cork', state: 'CO', postal_code: 'T12 X2Y3', country: 'IE' },
  });
  expect(order.billing.address.line1).toBe('12 Office Park');

  // Changing the saved address afterwards leaves the order as it was placed.
  await page.goto('/account/addresses');
  await page.getByRole('region', { name: 'Shipping addresses' }).getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('form', { name: 'Change the address' }).getByLabel('Street').fill('8 New Quay');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByRole('region', { name: 'Shipping addresses' }).getByText('8 New Quay')).toBeVisible();
  expect(((await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order).shipping.address.line1).toBe('7 Marina Quay');

  // The export: asked on /account/data, built by the job, downloaded by the e-mailed link.
  await page.goto('/account/data');
  await page.getByRole('button', { name: 'Export my data' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'We are preparing your data' })).toBeVisible();
  const exportLink = new URL(
    await linkInMail(page.request, email, 'Your Boat shop data is ready to download', '/api/account/privacy/export/'),
  );
  const download = await page.request.get(`${exportLink.pathname}${exportLink.search}`);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-disposition']).toMatch(/attachment; filename="boatshop-data-/);
  const archive = (await download.json()) as {
    profile: { email: string };
    orders: { id: string }[];
    invoices: { order_id: string; number: string }[];
    invoiceDocuments: { number: string; base64: string }[];
    addresses: { kind: string; address: { line1: string } }[];
  };
  expect(archive.profile.email).toBe(email);
  expect(archive.orders.map((o) => o.id)).toEqual([orderId]);
  const invoice = archive.invoices.find((row) => row.order_id === orderId);
  expect(invoice, 'the archive holds the order’s invoice').toBeTruthy();
  const document = archive.invoiceDocuments.find((row) => row.number === invoice!.number);
  expect(Buffer.from(document!.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  expect(archive.addresses.map((row) => `${row.kind} ${row.address.line1}`).sort()).toEqual([
    'billing 12 Office Park',
    'shipping 8 New Quay',
  ]);

  // Erasure waits for the boat to arrive; then the e-mailed link erases the account.
  await shipAndDeliver(browser, signedInState, orderId);
  await page.goto('/account/data');
  await page.getByRole('button', { name: 'Erase my account' }).click();
  await expect(page.getByText('We sent you an e-mail: open its link to confirm.')).toBeVisible();
  const eraseLink = new URL(
    await linkInMail(page.request, email, 'Confirm that your Boat shop account should be erased', '/account/erase'),
  );
  await page.goto(`${eraseLink.pathname}${eraseLink.search}`);
  const eraseNow = page.getByRole('button', { name: 'Erase my account now' });
  await expect(eraseNow).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/people-erase.png`, fullPage: true });
  await eraseNow.click();
  await expect(page.getByText('Your account was erased. Thank you for sailing with us.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/people-erased.png`, fullPage: true });

  // The old password no longer opens anything.
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.');
  expect((await page.request.get('/api/account/addresses')).status()).toBe(401);

  // The accountant still finds the order's invoice, with the buyer's name the law requires on it
  // and nothing else of the erased account.
  const accountantContext = await browser.newContext({ baseURL: shopUrl(), storageState: { cookies: [], origins: [] } });
  try {
    const accountant = await accountantContext.newPage();
    await accountant.goto('/');
    await signInAs(accountant, 'accountant');
    await accountant.goto('/admin/invoices');
    const listed = accountant.getByRole('region', { name: 'Invoices and credit notes' });
    const row = listed.getByRole('row').filter({ hasText: invoice!.number });
    await expect(row).toBeVisible();
    await expect(row).not.toContainText(email);
    await accountant.screenshot({ path: `${SHOTS}/people-accountant-after-erasure.png`, fullPage: true });
    const href = await row.getByRole('link', { name: 'Download' }).getAttribute('href');
    const pdf = await downloadInvoice(accountant.request, invoice!.number, href!);
    expect(pdf.text).toContain(order.billing.name);
    expect(pdf.text).toContain(order.billing.address.line1);
    expect(pdf.text).not.toContain(email);
  } finally {
    await accountantContext.close();
  }
});
