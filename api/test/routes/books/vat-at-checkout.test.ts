import { startViesStandin } from '@boatshop/dev-services';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_STRIPE } from '../../../src/config.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, intentIdOf, startPaymentsHarness, type PaymentsHarness } from '../payments/payments-test-kit.js';

// The buyer check the checkout obtained decides what the order costs, on the server: a French
// business whose VAT ID VIES confirms pays net (card order and deposit), anything short of a
// confirmed ID pays gross. Each money event of the order then gets its document in its own
// transaction, once, however often the provider delivers the event.

const VISA = '4242424242424242';
const YACHT_CENTS = 289_000_000; // 2.890.000,00 €, gross with German VAT
const YACHT_NET_CENTS = 242_857_143; // / 1,19
const YACHT_NET_DEPOSIT_CENTS = 24_285_700; // 10 % of the net, in whole euros
const BOAT_CENTS = 11_900_000; // 119.000,00 €
const BOAT_NET_CENTS = 10_000_000;
const VALID_ID = 'FR40303265045';

const FR_SHIPPING = {
  name: 'Chantier Naval Dupont SARL',
  address: { line1: '3 Quai des Chartrons', city: 'Bordeaux', state: 'Gironde', postal_code: '33000', country: 'FR' },
};

const vies = await startViesStandin({ port: 0 });
let harness: PaymentsHarness;
let admin: UserWithSession;
let shopper: UserWithSession;

beforeAll(async () => {
  harness = await startPaymentsHarness({ vies: { apiBase: vies.url, timeoutMs: 2_000 } });
});
beforeEach(async () => {
  await resetDatabase(harness.app);
  admin = await createUserWithSession(harness.app, { roles: ['user', 'admin'] });
  shopper = await createUserWithSession(harness.app);
});
afterAll(async () => {
  await harness?.close();
  await vies.close();
});

async function insertBoat(priceCents: number) {
  const row = await harness.app.db
    .insertInto('products')
    .values({ name: 'Seahaven 58', thumbnail_url: '/api/images/boat.svg', price_cents: priceCents, category: 'yachts', created_by: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function buyerCheck(who: UserWithSession, productId: string, vatId: string | null, country = 'FR') {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/vat/buyer-checks',
    headers: who.headers,
    payload: {
      buyerType: vatId ? 'business' : 'consumer',
      country,
      ...(vatId ? { vatId } : {}),
      items: [{ productId, quantity: 1 }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ checkId: string; totalCents: number; vies: string }>();
}

function create(who: UserWithSession, productId: string, grossCents: number, options: { mode?: 'deposit'; checkId?: string } = {}) {
  return harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: who.headers,
    payload: {
      items: [{ productId, quantity: 1 }],
      expectedTotalCents: grossCents,
      shipping: FR_SHIPPING,
      billing: FR_SHIPPING,
      ...(options.mode ? { mode: options.mode } : {}),
      ...(options.checkId ? { buyerCheckId: options.checkId } : {}),
    },
  });
}

async function pay(clientSecret: string) {
  const confirmed = await confirmCardLikeTheBrowser(harness.standinUrl, clientSecret, VISA);
  expect(confirmed.status).toBe(200);
  return harness.webhookDelivered('payment_intent.succeeded', intentIdOf(clientSecret));
}

/** The provider's event delivered again under a new event id: a re-delivery the event log cannot recognise. */
async function redeliver(eventId: string) {
  const event = await harness.stripe.events.retrieve(eventId);
  const payload = JSON.stringify({ ...event, id: `${event.id}_again` });
  const signature = harness.stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_STRIPE.webhookSecret });
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  expect(response.statusCode).toBe(200);
}

const documents = (orderId: string) =>
  harness.app.db
    .selectFrom('invoices')
    .select([
      'number',
      'kind',
      'vat_case',
      'rate_basis_points',
      'net_cents',
      'vat_cents',
      'total_cents',
      'corrects_invoice_id',
      'id',
      'wording',
    ])
    .where('order_id', '=', orderId)
    .orderBy('issued_at')
    .orderBy('number')
    .execute();

describe('the amount to pay follows the VAT decision', () => {
  it("quotes a consumer's amount for the shipping country: a new boat to another member state without VAT, at home with it", async () => {
    const boat = await insertBoat(BOAT_CENTS);
    await harness.app.db.updateTable('products').set({ vat_treatment: 'new_boat', vat_length_cm: 1200 }).where('id', '=', boat).execute();
    const quote = async (extra: Record<string, unknown>) => {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/api/payments/quote',
        headers: shopper.headers,
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
    const yacht = await insertBoat(YACHT_CENTS);
    const check = await buyerCheck(shopper, yacht, VALID_ID);
    expect(check).toMatchObject({ vies: 'valid', totalCents: YACHT_NET_CENTS });

    // The payment page's quote under the check shows the net total and the net deposit before paying.
    const quote = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/quote',
      headers: shopper.headers,
      payload: { items: [{ productId: yacht, quantity: 1 }], buyerCheckId: check.checkId },
    });
    expect(quote.json()).toMatchObject({ totalCents: YACHT_NET_CENTS, depositCents: YACHT_NET_DEPOSIT_CENTS, depositRequired: true });

    const created = await create(shopper, yacht, YACHT_CENTS, { mode: 'deposit', checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; totalCents: number; amountCents: number }>();
    expect(order).toMatchObject({ totalCents: YACHT_NET_CENTS, amountCents: YACHT_NET_DEPOSIT_CENTS });
    expect((await harness.stripe.paymentIntents.retrieve(intentIdOf(order.clientSecret))).amount).toBe(YACHT_NET_DEPOSIT_CENTS);
    const row = await harness.app.db
      .selectFrom('orders')
      .select(['vat_buyer_check_id', 'vies_consultation_number', 'bank_reference'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(row.vat_buyer_check_id).toBe(check.checkId);
    expect(row.vies_consultation_number).toMatch(/^WAPI/);

    const delivery = await pay(order.clientSecret);
    let docs = await documents(order.orderId);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ kind: 'advance', vat_case: 'intra_community', vat_cents: 0, total_cents: YACHT_NET_DEPOSIT_CENTS });
    expect(docs[0]!.wording).toContain('Intra-Community supply exempt from VAT');

    // A re-delivered webhook and the browser's confirmation make no second document.
    await redeliver(delivery.eventId);
    const confirm = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: shopper.headers,
      payload: { orderId: order.orderId },
    });
    expect(confirm.json()).toMatchObject({ status: 'reserved' });
    expect(await documents(order.orderId)).toHaveLength(1);

    // The balance by bank transfer: the final invoice of the whole supply.
    const balance = YACHT_NET_CENTS - YACHT_NET_DEPOSIT_CENTS;
    const transfer = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/bank-transfers',
      headers: admin.headers,
      payload: {
        reference: row.bank_reference,
        amountCents: balance,
        receivedOn: new Date().toISOString().slice(0, 10),
        bankReference: 'STMT-1',
      },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    docs = await documents(order.orderId);
    expect(docs.map((doc) => [doc.kind, doc.total_cents, doc.vat_cents])).toEqual([
      ['advance', YACHT_NET_DEPOSIT_CENTS, 0],
      ['final', YACHT_NET_CENTS, 0],
    ]);

    // 1.000,00 € back by bank: a credit note referring to the final invoice.
    const refund = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/bank-refund`,
      headers: admin.headers,
      payload: { amountCents: 100_000, refundedOn: new Date().toISOString().slice(0, 10), bankReference: 'STMT-OUT-1', reason: 'Goodwill' },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    docs = await documents(order.orderId);
    expect(docs.at(-1)).toMatchObject({ kind: 'credit_note', total_cents: 100_000, vat_cents: 0, corrects_invoice_id: docs[1]!.id });
    expect(docs.at(-1)!.number).toMatch(/^CN-\d{4}-000001$/);
  });

  it('a French business with a valid VAT ID is charged net by card; a card refund and the cancellation each get a credit note', async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const check = await buyerCheck(shopper, boat, VALID_ID);
    const created = await create(shopper, boat, BOAT_CENTS, { checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; totalCents: number; amountCents: number }>();
    expect(order).toMatchObject({ totalCents: BOAT_NET_CENTS, amountCents: BOAT_NET_CENTS });
    await pay(order.clientSecret);
    expect(await documents(order.orderId)).toMatchObject([{ kind: 'invoice', total_cents: BOAT_NET_CENTS, vat_cents: 0 }]);

    const act = (action: string, payload: object) =>
      harness.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/${action}`, headers: admin.headers, payload });
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
    const docs = await documents(order.orderId);
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
    const boat = await insertBoat(BOAT_CENTS);
    const check = await buyerCheck(shopper, boat, vatId);
    expect(check.vies).toBe(result);
    const created = await create(shopper, boat, BOAT_CENTS, { checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; totalCents: number; amountCents: number }>();
    expect(order).toMatchObject({ totalCents: BOAT_CENTS, amountCents: BOAT_CENTS });
    await pay(order.clientSecret);
    expect(await documents(order.orderId)).toMatchObject([
      { kind: 'invoice', vat_case: 'standard', rate_basis_points: 2000, total_cents: BOAT_CENTS, vat_cents: BOAT_CENTS - 9_916_667 },
    ]);
  });

  it("refuses another shopper's check and a check made for another delivery country", async () => {
    const boat = await insertBoat(BOAT_CENTS);
    const theirs = await buyerCheck(admin, boat, VALID_ID);
    const stolen = await create(shopper, boat, BOAT_CENTS, { checkId: theirs.checkId });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json()).toMatchObject({ error: { code: 'BUYER_CHECK_EXPIRED' } });

    const german = await buyerCheck(shopper, boat, null, 'DE');
    const elsewhere = await create(shopper, boat, BOAT_CENTS, { checkId: german.checkId });
    expect(elsewhere.statusCode).toBe(400);
    expect(await harness.app.db.selectFrom('orders').select('id').execute()).toHaveLength(0);
  });
});
