import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { CreatePaymentResponse, InvoiceSummary } from '@boatshop/contract';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { fillAddresses, fillCard, type JourneyAddress } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';
import { downloadInvoice } from '../support/invoice-pdf';
import { shopUrl } from '../support/stack';

// The books' journeys. A French business with a VAT ID that VIES (the stand-in) confirms buys a
// 2.890.000,00 € yacht: the payment page shows the net price before paying, the deposit is net
// too and gets an advance invoice without VAT and with the intra-Community wording; the balance,
// received by bank transfer, gets the final invoice deducting the advance; a refund of 1.000,00 €
// gets a credit note. A German consumer buying a margin-scheme boat gets an invoice that shows no
// VAT and says why. Each PDF is downloaded from the order page's list, its text read with
// pdftotext and its structured invoice validated against the EN 16931 schema.
// The journeys make their own boats: deposits.spec buys the seeded Belmare.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);

const GROSS_CENTS = 289_000_000;
const NET_CENTS = 242_857_143; // without the German 19 %
const NET_DEPOSIT_CENTS = 24_285_700; // 10 % of the net, in whole euros
const NET_BALANCE_CENTS = NET_CENTS - NET_DEPOSIT_CENTS;
const REFUND_CENTS = 100_000;
const MARGIN_BOAT_CENTS = 9_500_000;
const SHOTS = process.env.BOOKS_SHOTS_DIR ?? '/work/shots';

const FRENCH_BUSINESS: JourneyAddress = {
  name: 'Chantier Naval Dupont SARL',
  street: '3 Quai des Chartrons',
  city: 'Bordeaux',
  postalCode: '33000',
  country: 'FR',
  county: { index: 1 },
};
const GERMAN_CONSUMER: JourneyAddress = {
  name: 'Hanna Seemann',
  street: 'Elbchaussee 12',
  city: 'Hamburg',
  postalCode: '22763',
  country: 'DE',
  county: { index: 1 },
};

const invoicesOf = async (page: Page, orderId: string) =>
  ((await (await page.request.get(`/api/invoices?orderId=${orderId}`)).json()) as { data: InvoiceSummary[] }).data;

/** The admin's order page, in a browser signed in as the admin. */
async function adminOrderPage(browser: Browser, storageState: string, orderId: string) {
  const context = await browser.newContext({ baseURL: shopUrl(), storageState });
  const page = await context.newPage();
  await page.goto(`/admin/orders/${orderId}`);
  await expect(page.getByRole('group', { name: 'Order actions' })).toBeVisible();
  return { page, close: () => context.close() };
}

test.describe('a French business with a valid VAT ID', () => {
  test.use({ role: 'shopper' });

  let admin: CatalogueAdmin;
  test.beforeEach(async ({ playwright, signedInState }) => {
    admin = await CatalogueAdmin.open(playwright, await signedInState('admin'));
  });
  test.afterEach(async () => {
    await admin.close();
  });

  test('pays the net deposit of the 2.890.000,00 € yacht, then the balance, and gets the advance invoice, the final invoice and a credit note', async ({
    page,
    browser,
    signedInState,
  }) => {
    test.setTimeout(300_000);
    const yacht = await admin.add(`Belmare 64 Business ${Date.now()}`, GROSS_CENTS, 1);

    await page.goto(`/product/${yacht.id}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/payment$/);

    await fillAddresses(page, FRENCH_BUSINESS);
    await page.getByLabel('I buy as').selectOption('business');
    await page.getByLabel('VAT ID').fill('FR40303265045');
    await page.getByRole('button', { name: 'Check VAT ID' }).click();
    await expect(page.getByText(/VAT ID FR40303265045 confirmed by VIES/)).toBeVisible();
    await expect(page.getByText(`Price without VAT: ${price(NET_CENTS)}`, { exact: false })).toBeVisible();
    await expect(page.getByText('Intra-Community supply exempt from VAT', { exact: false })).toBeVisible();
    // The deposit is quoted again for this buyer: net.
    const deposit = page.getByRole('region', { name: 'Reserve with a deposit' });
    await expect(deposit).toContainText(`This order comes to ${price(NET_CENTS)}`);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'books-payment-business.png'), fullPage: true });

    await fillCard(page, '4242 4242 4242 4242');
    const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
    await page.getByRole('button', { name: `Pay deposit of ${price(NET_DEPOSIT_CENTS)}` }).click();
    const answer = (await (await created).json()) as CreatePaymentResponse;
    expect(answer).toMatchObject({ mode: 'deposit', totalCents: NET_CENTS, amountCents: NET_DEPOSIT_CENTS });

    // The order page lists the advance invoice.
    await expect(page).toHaveURL(new RegExp(`/order/${answer.orderId}$`));
    const invoices = page.getByRole('region', { name: 'Invoices and credit notes' });
    await expect(invoices.getByRole('row').filter({ hasText: 'Advance payment invoice' })).toContainText(price(NET_DEPOSIT_CENTS));
    await page.screenshot({ path: join(SHOTS, 'books-order-page.png'), fullPage: true });

    const listed = await invoicesOf(page, answer.orderId);
    expect(listed).toMatchObject([{ kind: 'advance', vatCents: 0, totalCents: NET_DEPOSIT_CENTS, buyerVatId: 'FR40303265045' }]);
    const advance = await downloadInvoice(page.request, listed[0]!.id);
    for (const field of [
      `Advance payment invoice ${listed[0]!.number}`,
      'VAT ID: FR40303265045',
      price(NET_DEPOSIT_CENTS).replace(/\u00a0/g, ' '),
      '0,00 %',
      'Intra-Community supply exempt from VAT (Art. 138(1) Directive 2006/112/EC); reverse charge',
    ]) {
      expect(advance.text).toContain(field);
    }
    // One page of the invoice as a picture, for the closing note.
    execFileSync('pdftoppm', ['-png', '-r', '90', '-f', '1', '-l', '1', '-singlefile', advance.file, join(SHOTS, 'books-advance-invoice')]);

    // The balance arrives by bank transfer, recorded by the admin: the final invoice deducts the advance.
    const ref = answer.orderId.slice(0, 8).toUpperCase();
    const adminPage = await adminOrderPage(browser, await signedInState('admin'), answer.orderId);
    try {
      await adminPage.page.getByRole('button', { name: 'Record bank transfer' }).click();
      const transfer = adminPage.page.getByRole('dialog', { name: `Record a bank transfer for order ${ref}` });
      await expect(transfer.getByLabel('Amount received')).toHaveValue(String(NET_BALANCE_CENTS / 100));
      await transfer.getByLabel('Bank reference').fill(`BOOKS-${ref}`);
      await transfer.getByRole('button', { name: `Record ${price(NET_BALANCE_CENTS)}` }).click();
      await expect(adminPage.page.getByRole('status').filter({ hasText: 'is paid in full' })).toBeVisible();

      await page.goto(`/order/${answer.orderId}`);
      await expect(invoices.getByRole('row').filter({ hasText: 'Final invoice' })).toBeVisible();
      const afterBalance = await invoicesOf(page, answer.orderId);
      const advanceNumber = listed[0]!.number;
      const finalInvoice = afterBalance.find((invoice) => invoice.kind === 'final');
      expect(finalInvoice, JSON.stringify(afterBalance)).toMatchObject({ vatCents: 0, buyerVatId: 'FR40303265045' });
      const final = await downloadInvoice(page.request, finalInvoice!.id);
      for (const field of [
        `Final invoice ${finalInvoice!.number}`,
        'Advance payments deducted',
        `Advance invoice ${advanceNumber}`,
        `− ${price(NET_DEPOSIT_CENTS).replace(/\u00a0/g, ' ')}`,
        'Intra-Community supply exempt from VAT',
      ]) {
        expect(final.text).toContain(field);
      }

      // A refund of 1.000,00 € makes a credit note referring to the invoice it corrects.
      await adminPage.page.reload();
      await adminPage.page.getByRole('button', { name: 'Refund', exact: true }).click();
      const refund = adminPage.page.getByRole('dialog', { name: `Refund order ${ref}` });
      await refund.getByLabel('Amount to refund').fill(String(REFUND_CENTS / 100));
      await refund.getByRole('button', { name: `Refund ${price(REFUND_CENTS)}` }).click();
      await expect(
        adminPage.page.getByRole('status').filter({ hasText: `${price(REFUND_CENTS)} of order ${ref} was refunded.` }),
      ).toBeVisible();
    } finally {
      await adminPage.close();
    }
    await expect
      .poll(async () => (await invoicesOf(page, answer.orderId)).filter((invoice) => invoice.kind === 'credit_note').length)
      .toBe(1);
    const creditNote = (await invoicesOf(page, answer.orderId)).find((invoice) => invoice.kind === 'credit_note')!;
    expect(creditNote).toMatchObject({ totalCents: REFUND_CENTS });
    await page.reload();
    await expect(invoices.getByRole('row').filter({ hasText: 'Credit note' })).toContainText(creditNote.number);
    const credit = await downloadInvoice(page.request, creditNote.id);
    expect(credit.text).toContain(`Credit note ${creditNote.number}`);
    expect(credit.text).toContain('Total credited');
    expect(credit.text).toMatch(/This credit note refers to invoice \d{4}-\d{6} of \d{2}\/\d{2}\/\d{4}\./);
    await page.screenshot({ path: join(SHOTS, 'books-order-page-credit-note.png'), fullPage: true });
  });
});

test.describe('a German consumer', () => {
  test.use({ role: 'shopper' });

  test('buys a margin-scheme boat and gets an invoice without VAT shown, with the margin wording', async ({
    page,
    playwright,
    signedInState,
  }) => {
    test.setTimeout(180_000);
    const admin = await CatalogueAdmin.open(playwright, await signedInState('admin'));
    try {
      const boat = await admin.add(`Used Aldren 34 ${Date.now()}`, MARGIN_BOAT_CENTS, 1);
      await admin.setVatTreatment(boat, { treatment: 'margin_scheme' });

      await page.goto(`/product/${boat.id}`);
      await expect(page.getByText('Margin scheme', { exact: false }).first()).toBeVisible();
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect(page).toHaveURL(/\/cart$/);
      await page.getByRole('button', { name: 'Checkout' }).click();
      await expect(page).toHaveURL(/\/payment$/);
      await fillAddresses(page, GERMAN_CONSUMER);
      await fillCard(page, '4242 4242 4242 4242');
      const created = page.waitForResponse((response) => response.url().endsWith('/api/payments/create'));
      await page.getByRole('button', { name: 'Pay now' }).click();
      const answer = (await (await created).json()) as CreatePaymentResponse;
      expect(answer).toMatchObject({ totalCents: MARGIN_BOAT_CENTS });
      await expect(page).toHaveURL(new RegExp(`/order/${answer.orderId}$`));

      const invoices = page.getByRole('region', { name: 'Invoices and credit notes' });
      await expect(invoices.getByRole('row').filter({ hasText: 'Invoice' })).toContainText(price(MARGIN_BOAT_CENTS));
      const [invoice] = await invoicesOf(page, answer.orderId);
      expect(invoice).toMatchObject({ kind: 'invoice', totalCents: MARGIN_BOAT_CENTS });
      const pdf = await downloadInvoice(page.request, invoice!.id);
      expect(pdf.text).toContain(
        'Margin scheme – Second-hand goods (Art. 313 and 325 Directive 2006/112/EC); VAT is not shown separately.',
      );
      expect(pdf.text).toContain('VAT not shown (margin scheme)');
      expect(pdf.text).not.toContain('VAT per rate');
      expect(pdf.text).not.toContain('19,00 %');
    } finally {
      await admin.close();
    }
  });
});
