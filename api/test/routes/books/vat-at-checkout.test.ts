import { describe, expect, it } from 'vitest';
import { intentIdOf } from '../payments/payments-test-kit.js';
import { DEV_STRIPE } from '../../../src/config.js';
import {
  YACHT_CENTS,
  YACHT_NET_CENTS,
  YACHT_NET_DEPOSIT_CENTS,
  BOAT_CENTS,
  BOAT_NET_CENTS,
  VALID_ID,
  insertBoat,
  buyerCheck,
  create,
  pay,
  documents,
  useBooksKit,
} from './books-test-kit.js';

// The buyer check the checkout obtained decides what the order costs, on the server: a French
// business whose VAT ID VIES confirms pays net (card order and deposit), anything short of a
// confirmed ID pays gross. Each money event of the order then gets its document in its own
// transaction, once, however often the provider delivers the event.

const kit = useBooksKit();

/** The provider's event delivered again under a new event id: a re-delivery the event log cannot recognise. */
async function redeliver(eventId: string) {
  const event = await kit.harness.stripe.events.retrieve(eventId);
  const payload = JSON.stringify({ ...event, id: `${event.id}_again` });
  const signature = kit.harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
  const response = await kit.harness.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  expect(response.statusCode).toBe(200);
}

describe('the amount to pay follows the VAT decision', () => {
  it("quotes a consumer's amount for the shipping country: a new boat to another member state without VAT, at home with it", async () => {
    const boat = await insertBoat(kit, BOAT_CENTS);
    await kit.harness.app.db
      .updateTable('products')
      .set({ vat_treatment: 'new_boat', vat_length_cm: 1200 })
      .where('id', '=', boat)
      .execute();
    const quote = async (extra: Record<string, unknown>) => {
      const response = await kit.harness.app.inject({
        method: 'POST',
        url: '/api/payments/quote',
        headers: kit.shopper.headers,
        payload: { items: [{ productId: boat, quantity: 1 }], ...extra },
      });
      return response;
    };
    expect((await quote({ shippingCountry: 'FR' })).json()).toMatchObject({ totalCents: BOAT_NET_CENTS });
    expect((await quote({ shippingCountry: 'DE' })).json()).toMatchObject({ totalCents: BOAT_CENTS });
    expect((await quote({})).json()).toMatchObject({ totalCents: BOAT_CENTS });
    expect((await quote({ shippingCountry: 'france' })).statusCode).toBe(400);
  });

  it('a French business with a valid VAT ID pays the net deposit; its deposit, balance and refund each get their document once', async () => {
    const yacht = await insertBoat(kit, YACHT_CENTS);
    const check = await buyerCheck(kit, kit.shopper, yacht, VALID_ID);
    expect(check).toMatchObject({ vies: 'valid', totalCents: YACHT_NET_CENTS });

    // The payment page's quote under the check shows the net total and the net deposit before paying.
    const quote = await kit.harness.app.inject({
      method: 'POST',
      url: '/api/payments/quote',
      headers: kit.shopper.headers,
      payload: { items: [{ productId: yacht, quantity: 1 }], buyerCheckId: check.checkId },
    });
    expect(quote.json()).toMatchObject({ totalCents: YACHT_NET_CENTS, depositCents: YACHT_NET_DEPOSIT_CENTS, depositRequired: true });

    const created = await create(kit, kit.shopper, yacht, YACHT_CENTS, { mode: 'deposit', checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; totalCents: number; amountCents: number }>();
    expect(order).toMatchObject({ totalCents: YACHT_NET_CENTS, amountCents: YACHT_NET_DEPOSIT_CENTS });
    expect((await kit.harness.stripe.paymentIntents.retrieve(intentIdOf(order.clientSecret))).amount).toBe(YACHT_NET_DEPOSIT_CENTS);
    const row = await kit.harness.app.db
      .selectFrom('orders')
      .select(['vat_buyer_check_id', 'vies_consultation_number', 'bank_reference'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(row.vat_buyer_check_id).toBe(check.checkId);
    expect(row.vies_consultation_number).toMatch(/^WAPI/);

    const delivery = await pay(kit, order.clientSecret);
    let docs = await documents(kit, order.orderId);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ kind: 'advance', vat_case: 'intra_community', vat_cents: 0, total_cents: YACHT_NET_DEPOSIT_CENTS });
    expect(docs[0]!.wording).toContain('Intra-Community supply exempt from VAT');

    // A re-delivered webhook and the browser's confirmation make no second document.
    await redeliver(delivery.eventId);
    const confirm = await kit.harness.app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: kit.shopper.headers,
      payload: { orderId: order.orderId },
    });
    expect(confirm.json()).toMatchObject({ status: 'reserved' });
    expect(await documents(kit, order.orderId)).toHaveLength(1);

    // The balance by bank transfer: the final invoice of the whole supply.
    const balance = YACHT_NET_CENTS - YACHT_NET_DEPOSIT_CENTS;
    const transfer = await kit.harness.app.inject({
      method: 'POST',
      url: '/api/admin/bank-transfers',
      headers: kit.admin.headers,
      payload: {
        reference: row.bank_reference,
        amountCents: balance,
        receivedOn: new Date().toISOString().slice(0, 10),
        bankReference: 'STMT-1',
      },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    docs = await documents(kit, order.orderId);
    expect(docs.map((doc) => [doc.kind, doc.total_cents, doc.vat_cents])).toEqual([
      ['advance', YACHT_NET_DEPOSIT_CENTS, 0],
      ['final', YACHT_NET_CENTS, 0],
    ]);

    // 1.000,00 € back by bank: a credit note referring to the final invoice.
    const refund = await kit.harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/bank-refund`,
      headers: kit.admin.headers,
      payload: { amountCents: 100_000, refundedOn: new Date().toISOString().slice(0, 10), bankReference: 'STMT-OUT-1', reason: 'Goodwill' },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    docs = await documents(kit, order.orderId);
    expect(docs.at(-1)).toMatchObject({ kind: 'credit_note', total_cents: 100_000, vat_cents: 0, corrects_invoice_id: docs[1]!.id });
    expect(docs.at(-1)!.number).toMatch(/^CN-\d{4}-000001$/);
  });

  it('a French business with a valid VAT ID is charged net by card; a card refund and the cancellation each get a credit note', async () => {
    const boat = await insertBoat(kit, BOAT_CENTS);
    const check = await buyerCheck(kit, kit.shopper, boat, VALID_ID);
    const created = await create(kit, kit.shopper, boat, BOAT_CENTS, { checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; totalCents: number; amountCents: number }>();
    expect(order).toMatchObject({ totalCents: BOAT_NET_CENTS, amountCents: BOAT_NET_CENTS });
    await pay(kit, order.clientSecret);
    expect(await documents(kit, order.orderId)).toMatchObject([{ kind: 'invoice', total_cents: BOAT_NET_CENTS, vat_cents: 0 }]);

    const act = (action: string, payload: object) =>
      kit.harness.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/${action}`, headers: kit.admin.headers, payload });
    {
      const refunded = await act('refund', { amountCents: 100_000, reason: 'Scratch', idempotencyKey: 'key-books-1' });
      expect(refunded.statusCode, refunded.body).toBe(200);
    }
    // The same refund pressed again: one credit note.
    {
      const refunded = await act('refund', { amountCents: 100_000, reason: 'Scratch', idempotencyKey: 'key-books-1' });
      expect(refunded.statusCode, refunded.body).toBe(200);
    }
    expect((await act('cancel', { reason: 'Changed plans' })).statusCode).toBe(200);
    const docs = await documents(kit, order.orderId);
    expect(docs.map((doc) => [doc.kind, doc.total_cents])).toEqual([
      ['invoice', BOAT_NET_CENTS],
      ['credit_note', 100_000],
      ['credit_note', BOAT_NET_CENTS - 100_000],
    ]);
    expect(docs.slice(1).every((doc) => doc.corrects_invoice_id === docs[0]!.id)).toBe(true);
  });

  it.each([
    ['invalid', 'FR40303269999'],
    ['unavailable', 'FR40303260000'],
  ])('fails closed: a business whose VAT ID VIES answers %s pays the gross price, French VAT inside', async (result, vatId) => {
    const boat = await insertBoat(kit, BOAT_CENTS);
    const check = await buyerCheck(kit, kit.shopper, boat, vatId);
    expect(check.vies).toBe(result);
    const created = await create(kit, kit.shopper, boat, BOAT_CENTS, { checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; totalCents: number; amountCents: number }>();
    expect(order).toMatchObject({ totalCents: BOAT_CENTS, amountCents: BOAT_CENTS });
    await pay(kit, order.clientSecret);
    expect(await documents(kit, order.orderId)).toMatchObject([
      { kind: 'invoice', vat_case: 'standard', rate_basis_points: 2000, total_cents: BOAT_CENTS, vat_cents: BOAT_CENTS - 9_916_667 },
    ]);
  });

  it("refuses another shopper's check and a check made for another delivery country", async () => {
    const boat = await insertBoat(kit, BOAT_CENTS);
    const theirs = await buyerCheck(kit, kit.admin, boat, VALID_ID);
    const stolen = await create(kit, kit.shopper, boat, BOAT_CENTS, { checkId: theirs.checkId });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json()).toMatchObject({ error: { code: 'BUYER_CHECK_EXPIRED' } });

    const german = await buyerCheck(kit, kit.shopper, boat, null, 'DE');
    const elsewhere = await create(kit, kit.shopper, boat, BOAT_CENTS, { checkId: german.checkId });
    expect(elsewhere.statusCode).toBe(400);
    expect(await kit.harness.app.db.selectFrom('orders').select('id').execute()).toHaveLength(0);
  });
});
