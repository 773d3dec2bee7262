import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { AdminOrder } from '@boatshop/contract';
import { DEMO_ACCOUNTS } from '../helpers/session';
import { payForAnOrder } from '../support/paid-order';
import { expect, test } from '../support/fixtures';
import { stackPort } from '../support/stack';

// Order operations' journeys: a shopper pays, an admin runs the order on /admin/orders (ships it with a
// tracking number, refunds part of it), the shopper follows it on the order page and in the
// dev mailbox; and a refund made at the provider (the Stripe stand-in) reaches the order.

interface MailboxMessage {
  subject: string;
  text: string;
}

/** The short reference the admin pages and the e-mails print: the id's first 8 characters, in capitals. */
const refOf = (orderId: string) => orderId.slice(0, 8).toUpperCase();

/** Subjects of the shopper's e-mails about one order: the checkout journey, running alongside, gets its own. */
async function mailsAbout(request: APIRequestContext, orderId: string): Promise<MailboxMessage[]> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(DEMO_ACCOUNTS.shopper.email)}`;
  const { messages } = (await (await request.get(mailbox)).json()) as { messages: MailboxMessage[] };
  return messages.filter((message) => message.subject.includes(refOf(orderId)));
}

const subjectsAbout = async (request: APIRequestContext, orderId: string) =>
  (await mailsAbout(request, orderId)).map((mail) => mail.subject).sort();

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/** Today as the browser writes it, DD/MM/YYYY in its own time zone. */
function browserToday(page: Page): Promise<string> {
  return page.evaluate(() => {
    const now = new Date();
    return `${String(now.getDate()).padStart(2, '0')}/${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`;
  });
}

/** A second browser context signed in as the demo admin, beside the shopper's. */
async function adminPage(browser: Browser, signedInState: (role: 'admin') => Promise<string>): Promise<Page> {
  const context = await browser.newContext({ storageState: await signedInState('admin') });
  return context.newPage();
}

/** Serious and critical axe findings in the page's content (the shell's own parts are platform.spec's). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

function orderFacts(page: Page) {
  return page.getByRole('definition');
}

test.describe('order operations', () => {
  test.use({ role: 'shopper' });

  test('an admin ships and partly refunds a paid order; the shopper sees each step on the order page and by e-mail', async ({
    page,
    browser,
    signedInState,
    requestedUrls,
  }) => {
    const { orderId, totalCents } = await payForAnOrder(page);
    const ref = refOf(orderId);
    const today = await browserToday(page);
    await expect(page.getByText(`Paid on ${today}`)).toBeVisible();

    // The admin finds the order among the newest by its id, and opens it.
    const admin = await adminPage(browser, signedInState);
    await admin.goto('/admin');
    await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Orders' }).click();
    await expect(admin).toHaveURL(/\/admin\/orders$/);
    await expect(admin.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    await admin.getByRole('searchbox', { name: 'Order ID or e-mail' }).fill(ref);
    await admin.getByRole('button', { name: 'Search' }).click();
    const row = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: ref }) });
    await expect(row.getByRole('cell')).toHaveText([
      today,
      `${DEMO_ACCOUNTS.shopper.displayName}${DEMO_ACCOUNTS.shopper.email}`,
      '1',
      euro.format(totalCents / 100),
      'Paid',
    ]);
    expect(await seriousViolations(admin)).toEqual([]);
    await row.getByRole('link', { name: ref }).click();
    await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await expect(admin.getByRole('heading', { level: 1, name: `Order ${ref}` })).toBeVisible();
    expect(await seriousViolations(admin)).toEqual([]);

    // Ships it with a tracking number, after a confirmation naming the order and its amount.
    await admin.getByRole('button', { name: 'Mark shipped' }).click();
    const ship = admin.getByRole('dialog', { name: `Mark order ${ref} shipped?` });
    await expect(ship).toContainText(`Order ${ref}, ${euro.format(totalCents / 100)}`);
    await ship.getByLabel('Carrier (optional)').fill('DHL');
    await ship.getByLabel('Tracking number (optional)').fill('JJD000390007');
    await ship.getByRole('button', { name: 'Mark shipped' }).click();
    await expect(admin.getByRole('status').filter({ hasText: `Order ${ref} was marked shipped.` })).toBeVisible();
    await expect(admin.getByRole('definition').filter({ hasText: 'Carrier: DHL, tracking number: JJD000390007' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Mark shipped' })).toHaveCount(0);

    // The shopper sees Shipped and the tracking number.
    await page.reload();
    await expect(orderFacts(page).filter({ hasText: 'Shipped' })).toBeVisible();
    await expect(page.getByText(`Shipped on ${today}`)).toBeVisible();
    await expect(page.getByText('Carrier: DHL, tracking number: JJD000390007').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // …and has the confirmation and the shipped e-mails (sent by the job queue, after the answer).
    await expect
      .poll(() => subjectsAbout(page.request, orderId))
      .toEqual([`Thank you for your order ${ref}`, `Your order ${ref} has shipped`]);
    const mails = await mailsAbout(page.request, orderId);
    expect(mails.find((mail) => mail.subject.startsWith('Thank you'))!.text).toContain(euro.format(totalCents / 100));
    expect(mails.find((mail) => mail.subject.endsWith('has shipped'))!.text).toContain('Tracking number: JJD000390007');

    // The admin refunds part of it: 10,00 €.
    await admin.getByRole('button', { name: 'Refund', exact: true }).click();
    const refund = admin.getByRole('dialog', { name: `Refund order ${ref}` });
    await expect(refund).toContainText(`up to ${euro.format(totalCents / 100)} can be refunded`);
    await refund.getByLabel('Amount to refund').fill('10');
    await refund.getByRole('button', { name: `Refund ${euro.format(10)}` }).click();
    await expect(admin.getByRole('status').filter({ hasText: `${euro.format(10)} of order ${ref} was refunded.` })).toBeVisible();
    await expect(admin.getByText('Partially refunded').first()).toBeVisible();

    // The admin pages stay the admin's: the shopper is sent away from them, and nothing of mf_admin loads.
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page).toHaveURL(/\/$/);
    expect(requestedUrls.filter((url) => new URL(url).port === String(stackPort('mf-admin')))).toEqual([]);

    // The shopper sees the partial refund and has its e-mail.
    await page.goto(`/order/${orderId}`);
    await expect(page.getByText(`Refunded ${euro.format(10)} on ${today}`)).toBeVisible();
    await expect(orderFacts(page).filter({ hasText: 'Partially refunded' })).toBeVisible();
    // Each e-mail once: three now, the refund's the newest.
    await expect
      .poll(() => subjectsAbout(page.request, orderId))
      .toEqual([`Refund of ${euro.format(10)} for your order ${ref}`, `Thank you for your order ${ref}`, `Your order ${ref} has shipped`]);

    await admin.context().close();
  });

  test('a refund made directly at the payment provider shows up on the order', async ({ page, browser, signedInState }) => {
    const { orderId } = await payForAnOrder(page);
    const today = await browserToday(page);
    const admin = await adminPage(browser, signedInState);

    // The payment intent the order was paid with, as the admin API reports it.
    const answer = await admin.request.get(`/api/admin/orders/${orderId}`);
    expect(answer.ok(), await answer.text()).toBe(true);
    const paymentIntent = ((await answer.json()) as AdminOrder).payments.find(
      (payment) => payment.status === 'succeeded',
    )!.providerReference!;

    // Someone refunds 5,00 € in the provider's dashboard (the stand-in's stand-in for it), which
    // then sends `charge.refunded` to the shop's webhook as Stripe does.
    const made = await page.request.post(`http://127.0.0.1:${stackPort('dev-stripe')}/_dashboard/payment_intents/${paymentIntent}/refund`, {
      headers: { authorization: 'Bearer sk_test_dev' },
      form: { amount: '500' },
    });
    expect(made.ok(), await made.text()).toBe(true);

    await expect(async () => {
      await page.reload();
      await expect(page.getByText(`Refunded ${euro.format(5)} on ${today}`)).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await expect(orderFacts(page).filter({ hasText: 'Partially refunded' })).toBeVisible();
    await expect.poll(() => subjectsAbout(page.request, orderId)).toContain(`Refund of ${euro.format(5)} for your order ${refOf(orderId)}`);

    await admin.goto(`/admin/orders/${orderId}`);
    await expect(admin.getByRole('listitem').filter({ hasText: `${euro.format(5)}, succeeded` })).toBeVisible();
    await admin.context().close();
  });
});

test.describe('money without an order', () => {
  test.use({ role: 'admin' });

  test('a payment the provider reports for no order raises an alert on the Orders page, which an admin reviews and resolves', async ({
    page,
  }) => {
    // Someone pays the shop's provider account outside any checkout: an intent with no order behind it.
    const made = await page.request.post(`http://127.0.0.1:${stackPort('dev-stripe')}/v1/payment_intents`, {
      headers: { authorization: 'Bearer sk_test_dev' },
      form: { amount: '12345', currency: 'eur', payment_method: 'pm_card_visa', confirm: 'true' },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const { id: paymentIntent } = (await made.json()) as { id: string };

    // The provider's webhook reaches the API on its own time.
    await page.goto('/admin/orders');
    const alert = page.getByRole('alert').filter({ hasText: /received without an order/ });
    await expect(async () => {
      await page.reload();
      await expect(alert).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await alert.getByRole('button', { name: 'Review payments without an order' }).click();

    const dialog = page.getByRole('dialog', { name: 'Payments without an order' });
    const item = dialog.getByRole('listitem').filter({ hasText: paymentIntent });
    await expect(item).toContainText(`${euro.format(123.45)} received`);
    await expect(item).toContainText('No order matches this payment.');
    await item.getByRole('button', { name: `Mark resolved ${paymentIntent}` }).click();
    await expect(item).toContainText('Resolved');
    await expect(item.getByRole('button')).toHaveCount(0);
  });
});
