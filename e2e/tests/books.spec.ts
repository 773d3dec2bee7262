import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { CreatePaymentResponse, InvoiceSummary } from '@boatshop/contract';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { fillCard } from '../support/checkout-forms';
import { expect, test } from '../support/fixtures';

// The books' journey: a French business with a VAT ID that VIES (the stand-in) confirms buys a
// 2.890.000,00 € yacht. The payment page shows the net price before paying, the deposit is net
// too, and the deposit gets an advance invoice without VAT and with the intra-Community wording,
// found on the order page and downloaded as a PDF with its structured invoice attached.
// The journey makes its own yacht: deposits.spec buys the seeded Belmare.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const price = (cents: number) => euro.format(cents / 100);

const GROSS_CENTS = 289_000_000;
const NET_CENTS = 242_857_143; // without the German 19 %
const NET_DEPOSIT_CENTS = 24_285_700; // 10 % of the net, in whole euros
const SHOTS = process.env.BOOKS_SHOTS_DIR ?? '/work/shots';

async function fillFrenchAddresses(page: Page): Promise<void> {
  for (const [group, nameLabel] of [
    ['Shipping address', 'Recipient name'],
    ['Billing address', 'Card owner name'],
  ] as const) {
    const fields = page.getByRole('group', { name: group });
    await fields.getByLabel(nameLabel).fill('Chantier Naval Dupont SARL');
    await fields.getByLabel('Street').fill('3 Quai des Chartrons');
    await fields.getByLabel('City').fill('Bordeaux');
    await fields.getByLabel('Postal code').fill('33000');
    await fields.getByLabel('Country').selectOption('FR');
    await fields.getByLabel('County').selectOption({ index: 1 });
  }
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

  test('pays the net deposit of the 2.890.000,00 € yacht and gets an advance invoice without VAT', async ({ page }) => {
    test.setTimeout(180_000);
    const yacht = await admin.add(`Belmare 64 Business ${Date.now()}`, GROSS_CENTS, 1);

    await page.goto(`/product/${yacht.id}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/payment$/);

    await fillFrenchAddresses(page);
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

    const listed = (await (await page.request.get(`/api/invoices?orderId=${answer.orderId}`)).json()) as { data: InvoiceSummary[] };
    expect(listed.data).toMatchObject([{ kind: 'advance', vatCents: 0, totalCents: NET_DEPOSIT_CENTS, buyerVatId: 'FR40303265045' }]);
    const pdf = await page.request.get(`/api/invoices/${listed.data[0]!.id}/pdf`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const folder = mkdtempSync(join(tmpdir(), 'books-e2e-'));
    const file = join(folder, 'advance.pdf');
    writeFileSync(file, await pdf.body());
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const field of [
      `Advance payment invoice ${listed.data[0]!.number}`,
      'VAT ID: FR40303265045',
      // pdftotext writes the no-break space before € as a space.
      price(NET_DEPOSIT_CENTS).replace(/\u00a0/g, ' '),
      '0,00 %',
      'Intra-Community supply exempt from VAT (Art. 138(1) Directive 2006/112/EC); reverse charge',
    ]) {
      expect(text).toContain(field);
    }
    expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain('factur-x.xml');
    // One page of the invoice as a picture, for the closing note.
    execFileSync('pdftoppm', ['-png', '-r', '90', '-f', '1', '-l', '1', '-singlefile', file, join(SHOTS, 'books-advance-invoice')]);
  });
});
