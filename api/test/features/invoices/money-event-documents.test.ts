import { describe, expect } from 'vitest';
import { takeInvoiceNumber } from '../../../src/features/invoices/invoice-numbers.js';
import { recordMoneyEventDocument, type BooksMoneyEvent } from '../../../src/features/invoices/money-events.js';
import { insertPendingOrder } from '../../helpers/orders.js';
import { it, type TestApp } from '../../support/fixtures.js';

const YEAR = new Date().getUTCFullYear();

function record(app: TestApp, event: BooksMoneyEvent) {
  return app.db.transaction().execute((trx) => recordMoneyEventDocument(trx, app.config.seller, event));
}

describe('invoice numbers', () => {
  it('20 payments confirmed at once get 20 consecutive numbers', async ({ app, shopper }) => {
    const orders = [];
    for (let i = 0; i < 20; i += 1) orders.push(await insertPendingOrder(app, shopper.user.id, { quantity: 1 }));
    const documents = await Promise.all(
      orders.map((order) =>
        record(app, { type: 'order_paid_by_card', orderId: order.id, paymentId: `pay_${order.id}`, amountCents: order.totalCents }),
      ),
    );
    const numbers = documents.map((document) => document!.number).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => `${YEAR}-${String(index + 1).padStart(6, '0')}`));
    const counter = await app.db.selectFrom('invoice_counters').selectAll().where('series', '=', 'invoice').executeTakeFirstOrThrow();
    expect(counter.last_number).toBe(20);
  });

  it('a money event rolled back gives its number back: no gap', async ({ app }) => {
    await expect(
      app.db.transaction().execute(async (trx) => {
        await takeInvoiceNumber(trx, 'invoice', YEAR);
        throw new Error('the payment could not be recorded');
      }),
    ).rejects.toThrow('could not be recorded');
    const next = await app.db.transaction().execute((trx) => takeInvoiceNumber(trx, 'invoice', YEAR));
    expect(next.number).toBe(`${YEAR}-000001`);
  });

  it('counts each series and year on its own', async ({ app }) => {
    const taken = await app.db
      .transaction()
      .execute(async (trx) => [
        await takeInvoiceNumber(trx, 'invoice', 2026),
        await takeInvoiceNumber(trx, 'credit_note', 2026),
        await takeInvoiceNumber(trx, 'invoice', 2027),
        await takeInvoiceNumber(trx, 'invoice', 2026),
      ]);
    expect(taken.map((number) => number.number)).toEqual(['2026-000001', 'CN-2026-000001', '2027-000001', '2026-000002']);
  });
});

describe('recordMoneyEventDocument', () => {
  it('the same event twice is one document and one number', async ({ app, shopper }) => {
    const order = await insertPendingOrder(app, shopper.user.id, { quantity: 1 });
    const event: BooksMoneyEvent = { type: 'order_paid_by_card', orderId: order.id, paymentId: 'pay_once', amountCents: order.totalCents };
    const [first, second] = [await record(app, event), await record(app, event)];
    expect(second).toEqual(first);
    expect(await app.db.selectFrom('invoices').select('id').execute()).toHaveLength(1);
  });

  it("an Irish consumer's invoice carries Irish VAT inside the gross price", async ({ app, shopper }) => {
    const order = await insertPendingOrder(app, shopper.user.id, { quantity: 1, unitPriceCents: 12_300_000 });
    const document = await record(app, { type: 'order_paid_by_card', orderId: order.id, paymentId: 'pay_ie', amountCents: 12_300_000 });
    const row = await app.db.selectFrom('invoices').selectAll().where('id', '=', document!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'invoice',
      vat_case: 'standard',
      vat_country: 'IE',
      rate_basis_points: 2300,
      net_cents: 10_000_000,
      vat_cents: 2_300_000,
      total_cents: 12_300_000,
    });
  });

  it('a deposit of a French business with a confirmed VAT ID gets an advance invoice without VAT, and the balance a final invoice', async ({
    app,
    shopper,
  }) => {
    const order = await insertPendingOrder(app, shopper.user.id, { quantity: 1, unitPriceCents: 289_000_000 });
    const check = await app.db
      .insertInto('vat_buyer_checks')
      .values({
        user_id: shopper.user.id,
        buyer_type: 'business',
        country_code: 'FR',
        vat_id: 'FR40303265045',
        vies_result: 'valid',
        consultation_number: 'WAPI1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.db.updateTable('orders').set({ vat_buyer_check_id: check.id }).where('id', '=', order.id).execute();

    const advance = await record(app, { type: 'deposit_received', orderId: order.id, paymentId: 'pay_dep', amountCents: 24_285_714 });
    const final = await record(app, {
      type: 'balance_paid_by_transfer',
      orderId: order.id,
      paymentId: 'pay_bal',
      amountCents: 218_571_429,
    });
    const rows = await app.db.selectFrom('invoices').selectAll().where('order_id', '=', order.id).orderBy('sequence').execute();
    expect(rows.map((row) => [row.number, row.kind, row.vat_case, row.vat_cents, row.buyer_vat_id])).toEqual([
      [advance!.number, 'advance', 'intra_community', 0, 'FR40303265045'],
      [final!.number, 'final', 'intra_community', 0, 'FR40303265045'],
    ]);
    expect(rows[0]!.wording).toContain('Intra-Community supply exempt from VAT');
    // The whole supply, net of German VAT: 2.890.000,00 € / 1,19.
    expect(rows[1]!.total_cents).toBe(242_857_143);
  });

  it('a refund makes a credit note that refers to its invoice; a cancellation before any invoice makes none', async ({ app, shopper }) => {
    const order = await insertPendingOrder(app, shopper.user.id, { quantity: 1 });
    const invoice = await record(app, { type: 'order_paid_by_card', orderId: order.id, paymentId: 'pay_r', amountCents: order.totalCents });
    const credit = await record(app, { type: 'refund', orderId: order.id, refundId: 're_1', amountCents: 100_000 });
    expect(credit!.number).toBe(`CN-${YEAR}-000001`);
    const row = await app.db.selectFrom('invoices').selectAll().where('id', '=', credit!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'credit_note', corrects_invoice_id: invoice!.id, total_cents: 100_000 });

    const unpaid = await insertPendingOrder(app, shopper.user.id, { quantity: 1 });
    expect(await record(app, { type: 'cancellation', orderId: unpaid.id, amountCents: unpaid.totalCents })).toBeNull();
  });
});
