import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { InvoiceSummary, VatSummary } from '@boatshop/contract';
import { recordMoneyEventDocument, type BooksMoneyEvent } from '../../../src/features/invoices/money-events.js';
import { insertPendingOrder } from '../../helpers/orders.js';
import { createUserWithSession } from '../../helpers/users.js';
import { it, type TestApp } from '../../support/fixtures.js';

// The shopper finds the documents of their own order and downloads the same bytes every time;
// staff who may read invoices list a period, export it as CSV and read its VAT per country and
// rate; nobody else reads any of it.

const TODAY = new Date().toISOString().slice(0, 10);

function record(app: TestApp, event: BooksMoneyEvent) {
  return app.db.transaction().execute(async (trx) => (await recordMoneyEventDocument(trx, app.config.seller, event))!);
}

/** An Irish consumer's paid order (23 % inside 12.300,00 €) and a French business's deposit without VAT. */
async function books(app: TestApp, userId: string) {
  const irish = await insertPendingOrder(app, userId, { quantity: 1, unitPriceCents: 1_230_000 });
  const invoice = await record(app, { type: 'order_paid_by_card', orderId: irish.id, paymentId: 'pi_ie', amountCents: 1_230_000 });
  const credit = await record(app, { type: 'refund', orderId: irish.id, refundId: 're_ie', amountCents: 123_000 });
  const french = await insertPendingOrder(app, userId, { quantity: 1, unitPriceCents: 11_900_000 });
  const address = JSON.stringify({
    name: 'Chantier SARL',
    address: { line1: '3 Quai', city: 'Bordeaux', state: 'Gironde', postal_code: '33000', country: 'FR' },
  });
  const check = await app.db
    .insertInto('vat_buyer_checks')
    .values({
      user_id: userId,
      buyer_type: 'business',
      country_code: 'FR',
      vat_id: 'FR40303265045',
      vies_result: 'valid',
      consultation_number: 'WAPI1',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await app.db
    .updateTable('orders')
    .set({ shipping: address, billing: address, vat_buyer_check_id: check.id })
    .where('id', '=', french.id)
    .execute();
  const advance = await record(app, { type: 'deposit_received', orderId: french.id, paymentId: 'pi_fr', amountCents: 1_000_000 });
  return { irish, french, invoice, credit, advance };
}

describe('GET /api/invoices and /api/invoices/:id/pdf', () => {
  it("lists the owner's documents and serves the same bytes at every download; a stranger gets nothing", async ({ app, shopper }) => {
    const { irish, invoice, credit } = await books(app, shopper.user.id);
    const list = await app.inject({ method: 'GET', url: `/api/invoices?orderId=${irish.id}`, headers: shopper.headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ data: InvoiceSummary[] }>().data).toMatchObject([
      { number: invoice.number, kind: 'invoice', totalCents: 1_230_000, vatCents: 230_000, correctsNumber: null },
      { number: credit.number, kind: 'credit_note', totalCents: 123_000, correctsNumber: invoice.number },
    ]);

    const first = await app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf`, headers: shopper.headers });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const second = await app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf`, headers: shopper.headers });
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
    expect(first.headers['x-content-sha256']).toBe(createHash('sha256').update(first.rawPayload).digest('hex'));

    const stranger = await createUserWithSession(app);
    const theirs = await app.inject({ method: 'GET', url: `/api/invoices?orderId=${irish.id}`, headers: stranger.headers });
    expect(theirs.json()).toEqual({ data: [] });
    expect((await app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf`, headers: stranger.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/invoices/not-a-uuid/pdf', headers: shopper.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/invoices?orderId=nope', headers: shopper.headers })).statusCode).toBe(400);
  });
});

describe('/api/admin/invoices', () => {
  it('an accountant lists the period, downloads, exports CSV and reads the VAT per country and rate; sales staff may not', async ({
    app,
    shopper,
  }) => {
    const { invoice, credit, advance } = await books(app, shopper.user.id);
    const accountant = await createUserWithSession(app, { roles: ['user', 'accountant'] });
    const get = (url: string, who = accountant) => app.inject({ method: 'GET', url, headers: who.headers });

    const list = await get(`/api/admin/invoices?from=${TODAY}&to=${TODAY}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list
        .json<{ data: InvoiceSummary[] }>()
        .data.map((row) => row.number)
        .sort(),
    ).toEqual([invoice.number, advance.number, credit.number].sort());
    expect((await get(`/api/admin/invoices?from=2020-01-01&to=2020-01-31`)).json()).toEqual({ data: [] });

    const pdf = await get(`/api/admin/invoices/${advance.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    const csv = await get(`/api/admin/invoices/export?from=${TODAY}&to=${TODAY}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Number;Kind;Issued on;Order;Corrects;Buyer country;Buyer VAT ID;VAT case;VAT country;Rate %;Net;VAT;Total');
    expect(lines.find((line) => line.startsWith(credit.number))).toContain(
      `;${invoice.number};IE;;standard;IE;23,00;-1000,00;-230,00;-1230,00`,
    );
    expect(lines.find((line) => line.startsWith(advance.number))).toContain(
      ';FR;FR40303265045;intra_community;;0,00;10000,00;0,00;10000,00',
    );

    const summary = await get(`/api/admin/invoices/vat-summary?from=${TODAY}&to=${TODAY}`);
    expect(summary.statusCode).toBe(200);
    expect(summary.json<VatSummary>()).toMatchObject({
      rows: [
        { country: 'FR', rateBasisPoints: 0, vatCase: 'intra_community', netCents: 1_000_000, vatCents: 0, documents: 1 },
        {
          country: 'IE',
          rateBasisPoints: 2300,
          vatCase: 'standard',
          netCents: 900_000,
          vatCents: 207_000,
          totalCents: 1_107_000,
          documents: 2,
        },
      ],
      vatCents: 207_000,
    });

    const sales = await createUserWithSession(app, { roles: ['user', 'sales'] });
    for (const url of [
      `/api/admin/invoices?from=${TODAY}&to=${TODAY}`,
      `/api/admin/invoices/${invoice.id}/pdf`,
      `/api/admin/invoices/vat-summary?from=${TODAY}&to=${TODAY}`,
    ]) {
      expect((await get(url, sales)).statusCode).toBe(403);
      expect((await get(url, shopper)).statusCode).toBe(403);
    }
    expect((await get('/api/admin/invoices?from=2026-02-30&to=2026-03-01')).statusCode).toBe(400);
    expect((await get('/api/admin/invoices?from=2026-03-02&to=2026-03-01')).statusCode).toBe(400);
    expect((await get('/api/admin/invoices?from=2024-01-01&to=2026-01-01')).statusCode).toBe(400);
  });
});
