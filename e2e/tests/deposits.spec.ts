import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import type { CreatePaymentResponse, Order, Product } from '@boatshop/contract';
import { DEMO_ACCOUNTS } from '../helpers/session';
import { fillAddresses, fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// Deposit and balance: the 2.890.000,00 € Belmare 64 Sport is above what one card
// payment may carry (999.999,99 €). The demo shopper reserves it with a 10 % deposit by card,
// reads the bank details and the RF reference on the order page and in the e-mail; another
// shopper sees it reserved and cannot buy it; the admin records the balance transfer; the order
// is paid and the boat sold.
//
// The journeys share one database per run. Belmare is a used boat (stock 1) and no other journey
// buys it: orders.spec buys a built-to-order sailing boat, stock.spec a boat it adds itself, and
// a11y.spec only puts a yacht in its cart (a cart holds nothing).

interface MailboxMessage {
  subject: string;
  text: string;
}

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);

const TOTAL_CENTS = 289_000_000;
const DEPOSIT_CENTS = 28_900_000;
const BALANCE_CENTS = 260_100_000;

const addButton = (page: Page) => page.getByRole('button', { name: 'Add to cart' });

/** The seeded yacht, found by name through the API (journeys running alongside add others). */
async function belmare(request: APIRequestContext): Promise<Product> {
  const response = await request.get('/api/products?filterType=yachts&q=Belmare&limit=48');
  expect(response.ok()).toBe(true);
  const { data } = (await response.json()) as { data: Product[] };
  const boat = data.find((product) => product.name === 'Belmare 64 Sport');
  expect(boat, 'the demo seed lists the Belmare 64 Sport').toBeTruthy();
  return boat!;
}

/** Codes in groups of four, as banks (and the shop's page and e-mails) print an IBAN or an RF reference. */
const inFours = (code: string) => code.replace(/(.{4})(?=.)/g, '$1 ');

/** The shopper's e-mails about one order (the subject names its short reference) that quote `reference`. */
async function mailsQuoting(request: APIRequestContext, orderId: string, reference: string): Promise<MailboxMessage[]> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(DEMO_ACCOUNTS.shopper.email)}`;
  const { messages } = (await (await request.get(mailbox)).json()) as { messages: MailboxMessage[] };
  return messages.filter(
    (message) => message.subject.includes(orderId.slice(0, 8).toUpperCase()) && message.text.includes(inFours(reference)),
  );
}

/** Serious and critical axe findings in the page's content (the shell's own parts are platform.spec's). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** The value a definition list gives for a term, inside `scope`. */
function detail(scope: ReturnType<Page['getByRole']>, term: string) {
  return scope
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

test.describe('a yacht above the card limit', () => {
  test.use({ role: 'shopper' });

  test('is reserved with a deposit by card 4242, paid in full by bank transfer recorded by the admin, and then sold', async ({
    page,
    browser,
    signedInState,
  }) => {
    const boat = await belmare(page.request);
    expect(boat.priceCents).toBe(TOTAL_CENTS);
    expect(boat.availability, 'no other journey reserves or buys the Belmare').toBe('in_stock');

    // The shopper puts the yacht in the cart and goes to pay: only a deposit is offered.
    await page.goto(`/product/${boat.id}`);
    await addButton(page).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/payment$/);
    const deposit = page.getByRole('region', { name: 'Reserve with a deposit' });
    await expect(deposit).toContainText(`This order comes to ${price(TOTAL_CENTS)}`);
    await expect(detail(deposit, 'Deposit, paid by card now')).toHaveText(price(DEPOSIT_CENTS));
    await expect(detail(deposit, 'Balance, due by bank transfer within 14 days')).toHaveText(price(BALANCE_CENTS));
    await expect(page.getByRole('radio')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    await fillAddresses(page);
    await fillCard(page, '4242 4242 4242 4242');
    const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
    await page.getByRole('button', { name: `Pay deposit of ${price(DEPOSIT_CENTS)}` }).click();
    const answer = (await (await created).json()) as CreatePaymentResponse;
    expect(answer).toMatchObject({ mode: 'deposit', amountCents: DEPOSIT_CENTS, totalCents: TOTAL_CENTS });
    const { orderId } = answer;

    // The order page: Reserved, and how to pay the balance.
    await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
    await expect(page.getByText('Thank you, your deposit was received.', { exact: false })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: /^Reserved$/ })).toBeVisible();
    const order = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order;
    expect(order.balance).not.toBeNull();
    const { reference, iban, bic, accountHolder, dueOn } = order.balance!;
    expect(reference).toMatch(/^RF\d{2}[0-9A-Z]{1,21}$/);
    const balance = page.getByRole('region', { name: 'How to pay the balance' });
    await expect(detail(balance, 'Amount')).toHaveText(price(BALANCE_CENTS));
    await expect(detail(balance, 'Account holder')).toHaveText(accountHolder);
    await expect(detail(balance, 'IBAN')).toHaveText(inFours(iban));
    await expect(detail(balance, 'BIC')).toHaveText(bic);
    const [year, month, day] = dueOn.split('-');
    await expect(detail(balance, 'Due date')).toHaveText(`${day}/${month}/${year}`);
    await expect(balance.getByText(inFours(reference), { exact: true })).toBeVisible();
    await expect(balance.getByRole('button', { name: 'Copy reference' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: `Deposit paid ${price(DEPOSIT_CENTS)} on` })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // …and the e-mail (sent by the job queue, after the answer) gives the same bank details.
    await expect
      .poll(async () => (await mailsQuoting(page.request, orderId, reference)).length, { message: 'an e-mail quoting the RF reference' })
      .toBeGreaterThan(0);
    const [mail] = await mailsQuoting(page.request, orderId, reference);
    for (const text of [price(DEPOSIT_CENTS), price(BALANCE_CENTS), accountHolder, inFours(iban), bic, `${day}/${month}/${year}`]) {
      expect(mail!.text).toContain(text);
    }

    // History shows it reserved.
    await page.goto('/dashboard');
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: price(TOTAL_CENTS) })
        .filter({ hasText: 'Reserved' })
        .first(),
    ).toBeVisible();

    // Another shopper sees the yacht reserved and cannot buy it.
    const other = await browser.newContext({ baseURL: shopUrl() });
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(`/product/${boat.id}`);
      await expect(otherPage.getByRole('heading', { name: boat.name })).toBeVisible();
      await expect(otherPage.getByText('Reserved', { exact: true })).toBeVisible();
      await expect(addButton(otherPage)).toBeDisabled();

      // The admin records the balance received by bank transfer.
      const adminContext = await browser.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
      try {
        const admin = await adminContext.newPage();
        // The list's Reserved filter finds it, with the balance still due.
        const ref = orderId.slice(0, 8).toUpperCase();
        await admin.goto('/admin/orders');
        await admin.getByLabel('State').selectOption({ label: 'Reserved' });
        await expect(admin).toHaveURL(/\/admin\/orders\?status=reserved$/);
        await admin.getByRole('searchbox', { name: 'Order ID or e-mail' }).fill(ref);
        await admin.getByRole('button', { name: 'Search' }).click();
        const row = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: ref }) });
        await expect(row).toContainText(`${price(BALANCE_CENTS)} due`);
        await expect(row).toContainText('Reserved');
        await row.getByRole('link', { name: ref }).click();
        await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
        const facts = admin.getByRole('heading', { level: 1 }).locator('xpath=ancestor::section[1]');
        await expect(detail(facts, 'Payment reference')).toHaveText(reference);
        await expect(detail(facts, 'Balance due')).toHaveText(price(BALANCE_CENTS));
        await admin.getByRole('button', { name: 'Record bank transfer' }).click();
        const dialog = admin.getByRole('dialog', { name: `Record a bank transfer for order ${ref}` });
        await expect(dialog.getByLabel('Amount received')).toHaveValue(String(BALANCE_CENTS / 100));
        expect(await seriousViolations(admin)).toEqual([]);
        await dialog.getByLabel('Bank reference').fill(`E2E-${orderId.slice(0, 8)}`);
        await dialog.getByRole('button', { name: `Record ${price(BALANCE_CENTS)}` }).click();
        await expect(admin.getByRole('status').filter({ hasText: 'is paid in full' })).toBeVisible();
        await expect(dialog).toBeHidden();
        await expect(admin.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: 'Record bank transfer' })).toHaveCount(
          0,
        );
      } finally {
        await adminContext.close();
      }

      // The shopper's order is paid; the timeline tells the transfer.
      await page.goto(`/order/${orderId}`);
      await expect(page.getByRole('definition').filter({ hasText: /^Paid$/ })).toBeVisible();
      await expect(page.getByRole('listitem').filter({ hasText: `Bank transfer received ${price(BALANCE_CENTS)} on` })).toBeVisible();
      await expect(page.getByRole('region', { name: 'How to pay the balance' })).toHaveCount(0);

      // The yacht is sold.
      await otherPage.goto(`/product/${boat.id}`);
      await expect(otherPage.getByText('Sold', { exact: true })).toBeVisible();
      await expect(addButton(otherPage)).toBeDisabled();
    } finally {
      await other.close();
    }
  });
});
