import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect } from 'vitest';
import { orderCreditorReference } from '../../../src/features/deposits/deposit-rules.js';
import { epcPayload } from '../../../src/features/invoices/pro-forma.js';
import { bookLedger, insertPendingOrder } from '../../helpers/orders.js';
import { createUserWithSession } from '../../helpers/users.js';
import { it, type TestApp } from '../../support/fixtures.js';

// The pro-forma of a reserved order's balance, as the shopper downloads it: pdftotext finds the
// amount still owed, the shop's IBAN, the order's RF reference and the due date; the EPC QR code
// pulled out of the PDF (pdfimages) decodes to the transfer a banking app would fill in.

const DUE_ON = '2026-12-24';

/** A 20.000,00 € order reserved by a 2.000,00 € card deposit, 3.000,00 € of the balance transferred. */
async function reservedOrder(app: TestApp, userId: string) {
  const order = await insertPendingOrder(app, userId, { quantity: 2, unitPriceCents: 1_000_000 });
  const reference = orderCreditorReference(order.id);
  await app.db
    .updateTable('orders')
    .set({ status: 'reserved', deposit_cents: 200_000, bank_reference: reference, balance_due_on: DUE_ON })
    .where('id', '=', order.id)
    .execute();
  await bookLedger(app, order.id, [
    ['card_capture', 200_000],
    ['bank_transfer_in', 300_000],
  ]);
  return { ...order, reference };
}

function decodeQrImages(pdf: Buffer): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pro-forma-'));
  writeFileSync(path.join(dir, 'doc.pdf'), pdf);
  execFileSync('pdfimages', ['-png', path.join(dir, 'doc.pdf'), path.join(dir, 'img')]);
  const decoded: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.png'))) {
    const png = PNG.sync.read(readFileSync(path.join(dir, file)));
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    if (code) decoded.push(Buffer.from(code.binaryData).toString('utf8'));
  }
  return decoded;
}

describe('epcPayload', () => {
  it('writes the EPC069-12 lines: BCD, 002, UTF-8, SCT, BIC, name, IBAN, EUR amount, no purpose, the RF reference', async () => {
    expect(
      epcPayload({
        bic: 'COBADEFFXXX',
        name: 'Boat shop',
        iban: 'DE89 3704 0044 0532 0130 00',
        amountCents: 260_100_005,
        reference: 'RF18 5390 0754 7034',
      }),
    ).toBe('BCD\n002\n1\nSCT\nCOBADEFFXXX\nBoat shop\nDE89370400440532013000\nEUR2601000.05\n\nRF18539007547034');
    expect(() => epcPayload({ bic: 'X', name: 'n', iban: 'DE89', amountCents: 0, reference: 'RF18' })).toThrow();
    expect(() => epcPayload({ bic: 'X', name: 'n', iban: 'DE89', amountCents: 100_000_000_000, reference: 'RF18' })).toThrow();
  });
});

describe('GET /api/invoices/pro-forma/:id', () => {
  it('gives the owner a payment request for what is still owed, with IBAN, RF reference, due date and a scannable EPC QR code', async ({
    app,
    shopper,
  }) => {
    const order = await reservedOrder(app, shopper.user.id);
    const response = await app.inject({ method: 'GET', url: `/api/invoices/pro-forma/${order.id}`, headers: shopper.headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="pro-forma-${order.id.slice(0, 8).toUpperCase()}.pdf"`);

    const dir = mkdtempSync(path.join(tmpdir(), 'pro-forma-'));
    writeFileSync(path.join(dir, 'p.pdf'), response.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'p.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('Pro-forma: payment request');
    expect(text).toContain('This is not an invoice');
    expect(text).not.toMatch(/Invoice number/);
    expect(text).toContain('Amount due 15.000,00 €');
    expect(text).toContain('Received so far − 5.000,00 €');
    expect(text).toContain('IBAN: DE89 3704 0044 0532 0130 00');
    expect(text).toContain(`Reference: ${order.reference.replace(/(.{4})(?=.)/g, '$1 ')}`);
    expect(text).toContain('Due by 24/12/2026');
    expect(text).toContain(`${app.config.deposits.bankAccountHolder}`);

    expect(decodeQrImages(response.rawPayload)).toEqual([
      `BCD\n002\n1\nSCT\n${app.config.deposits.bankBic}\n${app.config.deposits.bankAccountHolder}\n${app.config.deposits.bankIban}\nEUR15000.00\n\n${order.reference}`,
    ]);
  });

  it('answers 404 to a stranger, for an order not waiting for its balance, and 401 without a session', async ({ app, shopper }) => {
    const order = await reservedOrder(app, shopper.user.id);
    const stranger = await createUserWithSession(app);
    expect((await app.inject({ method: 'GET', url: `/api/invoices/pro-forma/${order.id}`, headers: stranger.headers })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url: `/api/invoices/pro-forma/${order.id}` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/invoices/pro-forma/not-a-uuid', headers: shopper.headers })).statusCode).toBe(404);

    // Paid in full: nothing is owed any more.
    await bookLedger(app, order.id, [['bank_transfer_in', 1_500_000]]);
    expect((await app.inject({ method: 'GET', url: `/api/invoices/pro-forma/${order.id}`, headers: shopper.headers })).statusCode).toBe(
      404,
    );
    // A card order without a deposit has no balance to transfer.
    const card = await insertPendingOrder(app, shopper.user.id);
    expect((await app.inject({ method: 'GET', url: `/api/invoices/pro-forma/${card.id}`, headers: shopper.headers })).statusCode).toBe(404);
  });
});
