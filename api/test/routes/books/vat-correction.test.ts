import { afterEach, describe, expect, it } from 'vitest';
import type { UserWithSession } from '../../helpers/users.js';
import {
  YACHT_CENTS,
  YACHT_NET_CENTS,
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

// VIES was down when a French business bought: the order was charged and invoiced like a
// consumer's. Once VIES confirms the VAT ID, the admin corrects the order once: a credit note for
// each invoice, the invoices again without VAT, the order's total net, and the VAT received owed
// back; the refunds paying it back make no further credit note.

const kit = useBooksKit();

const correct = (orderId: string, who: UserWithSession = kit.admin) =>
  kit.harness.app.inject({ method: 'POST', url: `/api/admin/vat/orders/${orderId}/correction`, headers: who.headers });

/** A FR business's card order placed while VIES was down for France, paid: gross, French VAT inside. */
async function paidDuringOutage(priceCents = BOAT_CENTS) {
  const boat = await insertBoat(kit, priceCents);
  kit.vies.setOutage('FR', true);
  const check = await buyerCheck(kit, kit.shopper, boat, VALID_ID);
  expect(check.vies).toBe('unavailable');
  const created = await create(kit, kit.shopper, boat, priceCents, { checkId: check.checkId });
  expect(created.statusCode, created.body).toBe(201);
  const order = created.json<{ orderId: string; clientSecret: string; totalCents: number }>();
  await pay(kit, order.clientSecret);
  return order;
}

describe("correcting an order's VAT once VIES confirms the buyer", () => {
  afterEach(() => kit.vies.setOutage('FR', false));

  it('credits the invoice, issues it again without VAT, and owes the VAT back; refunds of it make no second credit note', async () => {
    const order = await paidDuringOutage();
    const [invoice] = await documents(kit, order.orderId);
    expect(invoice).toMatchObject({ kind: 'invoice', total_cents: order.totalCents });
    expect(invoice!.vat_cents).toBeGreaterThan(0);

    // Still down: refused, nothing issued.
    const refused = await correct(order.orderId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('VAT_ID_NOT_CONFIRMED');
    expect(await documents(kit, order.orderId)).toHaveLength(1);

    const status = async () =>
      (await kit.harness.app.inject({ method: 'GET', url: `/api/admin/vat/orders/${order.orderId}`, headers: kit.admin.headers })).json();
    expect(await status()).toMatchObject({
      buyerType: 'business',
      vatId: VALID_ID,
      vies: 'unavailable',
      correction: null,
      correctable: true,
    });

    kit.vies.setOutage('FR', false);
    const corrected = await correct(order.orderId);
    expect(corrected.statusCode, corrected.body).toBe(200);
    const owed = order.totalCents - BOAT_NET_CENTS;
    expect(await status()).toMatchObject({ vies: 'valid', correction: { owedCents: owed, settledCents: 0 }, correctable: false });
    expect(corrected.json()).toMatchObject({
      orderId: order.orderId,
      vatId: VALID_ID,
      consultationNumber: expect.stringMatching(/^WAPI/),
      creditNotes: [{ kind: 'credit_note', totalCents: order.totalCents }],
      reissued: [{ kind: 'invoice', totalCents: BOAT_NET_CENTS }],
      totalCents: BOAT_NET_CENTS,
      owedCents: owed,
    });
    let docs = await documents(kit, order.orderId);
    expect(docs).toHaveLength(3);
    const credit = docs.find((doc) => doc.kind === 'credit_note')!;
    const reissued = docs.find((doc) => doc.kind === 'invoice' && doc.id !== invoice!.id)!;
    expect(credit).toMatchObject({ total_cents: order.totalCents, vat_cents: invoice!.vat_cents, corrects_invoice_id: invoice!.id });
    expect(reissued).toMatchObject({ total_cents: BOAT_NET_CENTS, vat_cents: 0 });
    expect(reissued.wording).toContain('Intra-Community supply exempt from VAT');
    const row = await kit.harness.app.db
      .selectFrom('orders')
      .select(['total_cents', 'vies_consultation_number'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ total_cents: BOAT_NET_CENTS, vies_consultation_number: expect.stringMatching(/^WAPI/) });

    // Once only.
    const again = await correct(order.orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('VAT_CORRECTED_ALREADY');

    // The VAT goes back by card, pressed twice: no credit note for it; a goodwill refund after it gets one.
    const refund = (amountCents: number, idempotencyKey: string) =>
      kit.harness.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${order.orderId}/refund`,
        headers: kit.admin.headers,
        payload: { amountCents, reason: 'VAT corrected', idempotencyKey },
      });
    expect((await refund(owed, 'vat-back')).statusCode).toBe(200);
    expect((await refund(owed, 'vat-back')).statusCode).toBe(200);
    expect(await documents(kit, order.orderId)).toHaveLength(3);
    expect(await status()).toMatchObject({ correction: { owedCents: owed, settledCents: owed } });
    expect((await refund(50_000, 'goodwill')).statusCode).toBe(200);
    docs = await documents(kit, order.orderId);
    expect(docs).toHaveLength(4);
    expect(docs.filter((doc) => doc.kind === 'credit_note' && doc.id !== credit.id)).toMatchObject([
      { total_cents: 50_000, vat_cents: 0, corrects_invoice_id: reissued.id },
    ]);
  });

  it('corrects a reserved deposit: the advance again without VAT, and the balance is due on the net total', async () => {
    const yacht = await insertBoat(kit, YACHT_CENTS);
    kit.vies.setOutage('FR', true);
    const check = await buyerCheck(kit, kit.shopper, yacht, VALID_ID);
    const created = await create(kit, kit.shopper, yacht, YACHT_CENTS, { mode: 'deposit', checkId: check.checkId });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json<{ orderId: string; clientSecret: string; amountCents: number }>();
    await pay(kit, order.clientSecret);
    kit.vies.setOutage('FR', false);

    const corrected = await correct(order.orderId);
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({ totalCents: YACHT_NET_CENTS, owedCents: 0 });
    const docs = await documents(kit, order.orderId);
    const [first, second] = docs.filter((doc) => doc.kind === 'advance');
    expect(first).toMatchObject({ total_cents: order.amountCents });
    expect(first!.vat_cents).toBeGreaterThan(0);
    expect(docs.filter((doc) => doc.kind === 'credit_note')).toMatchObject([
      { total_cents: order.amountCents, vat_cents: first!.vat_cents, corrects_invoice_id: first!.id },
    ]);
    expect(second).toMatchObject({ total_cents: order.amountCents, vat_cents: 0 });

    // The balance: the net total less the deposit; the final invoice deducts the reissued advance only.
    const { bank_reference } = await kit.harness.app.db
      .selectFrom('orders')
      .select('bank_reference')
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    const transfer = await kit.harness.app.inject({
      method: 'POST',
      url: '/api/admin/bank-transfers',
      headers: kit.admin.headers,
      payload: {
        reference: bank_reference,
        amountCents: YACHT_NET_CENTS - order.amountCents,
        receivedOn: new Date().toISOString().slice(0, 10),
        bankReference: 'STMT-CORR-1',
      },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    const final = await kit.harness.app.db
      .selectFrom('invoices')
      .select(['snapshot', 'total_cents', 'vat_cents'])
      .where('order_id', '=', order.orderId)
      .where('kind', '=', 'final')
      .executeTakeFirstOrThrow();
    expect(final).toMatchObject({ total_cents: YACHT_NET_CENTS, vat_cents: 0 });
    expect(final.snapshot!.advances.map((advance) => advance.number)).toEqual([second!.number]);
    expect(final.snapshot!.amountDueCents).toBe(YACHT_NET_CENTS - order.amountCents);
  });

  it('two admins correcting at once make one set of documents', async () => {
    const order = await paidDuringOutage();
    kit.vies.setOutage('FR', false);
    const answers = await Promise.all([correct(order.orderId), correct(order.orderId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await documents(kit, order.orderId)).toHaveLength(3);
  });

  it('refuses what it cannot correct: a consumer, an ID VIES calls invalid, a stranger, an unknown order', async () => {
    const boat = await insertBoat(kit, BOAT_CENTS);
    const consumer = await create(kit, kit.shopper, boat, BOAT_CENTS);
    const consumerOrder = consumer.json<{ orderId: string; clientSecret: string }>();
    await pay(kit, consumerOrder.clientSecret);
    expect((await correct(consumerOrder.orderId)).json().error.code).toBe('NO_BUSINESS_VAT_ID');

    const other = await insertBoat(kit, BOAT_CENTS);
    const check = await buyerCheck(kit, kit.shopper, other, 'FR40303269999');
    const invalid = await create(kit, kit.shopper, other, BOAT_CENTS, { checkId: check.checkId });
    const invalidOrder = invalid.json<{ orderId: string; clientSecret: string }>();
    await pay(kit, invalidOrder.clientSecret);
    const refused = await correct(invalidOrder.orderId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('VAT_ID_NOT_CONFIRMED');

    expect((await correct(invalidOrder.orderId, kit.shopper)).statusCode).toBe(403);
    expect((await correct('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await correct('not-a-uuid')).statusCode).toBe(404);
  });
});
