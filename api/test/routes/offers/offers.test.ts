import type { Offer } from '@boatshop/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { releaseExpiredOfferHolds } from '../../../src/features/offers/offers.repository.js';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, createBody, startPaymentsHarness, type PaymentsHarness } from '../payments/payments-test-kit.js';

// Offers: the shop sends a price on a lead, the buyer accepts (or declines, or counters once),
// and the accepted offer is paid through the checkout at the agreed price and no other.
// Runs on PGlite (no DATABASE_URL) and on PostgreSQL (DATABASE_URL).

const VISA = '4242424242424242';
const YACHT_CENTS = 289_000_000; // 2.890.000,00 €
const OFFER_CENTS = 275_000_000; // 2.750.000,00 €
const DEPOSIT_CENTS = 27_500_000; // 275.000,00 €

let harness: PaymentsHarness;
beforeAll(async () => {
  harness = await startPaymentsHarness({
    sales: { inbox: 'sales@boatshop.test', enquiriesPerHour: 100, messagesPerHour: 100, perIpPerMinute: 0 },
  });
});
beforeEach(() => resetDatabase(harness.app));
afterAll(() => harness?.close());

type Headers = Record<string, string>;

/** YYYY-MM-DD, `days` from today (UTC). */
function day(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

interface World {
  yacht: string;
  leadId: string;
  buyer: UserWithSession;
  admin: UserWithSession;
}

/** The 2.890.000,00 € yacht (one on hand), a buyer's question about it, and an owner. */
async function world(options: { stock?: number | null; price?: number } = {}): Promise<World> {
  const { app } = harness;
  const { id: yacht } = await app.db
    .insertInto('products')
    .values({
      name: 'Belmare 64 Sport',
      thumbnail_url: '/api/images/boat.svg',
      price_cents: options.price ?? YACHT_CENTS,
      category: 'yachts',
      created_by: null,
      stock_on_hand: options.stock === undefined ? 1 : options.stock,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const buyer = await createUserWithSession(app, { displayName: 'Bea Buyer' });
  const admin = await createUserWithSession(app, { roles: ['user', 'owner'], displayName: 'Ada Admin' });
  const asked = await app.inject({
    method: 'POST',
    url: '/api/enquiries',
    headers: buyer.headers,
    payload: { productId: yacht, message: 'Would you take 2.700.000?' },
  });
  expect(asked.statusCode, asked.body).toBe(202);
  return { yacht, leadId: asked.json().id, buyer, admin };
}

async function send(w: World, body: Record<string, unknown> = {}, headers: Headers = w.admin.headers) {
  return harness.app.inject({
    method: 'POST',
    url: `/api/admin/leads/${w.leadId}/offers`,
    headers,
    payload: { priceCents: OFFER_CENTS, validUntil: day(7), conditions: 'Survey and sea trial at Antibes before completion.', ...body },
  });
}

async function sent(w: World, body: Record<string, unknown> = {}): Promise<Offer> {
  const response = await send(w, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const answer = (w: World, offerId: string, path: 'accept' | 'decline' | 'counter', payload?: unknown, headers = w.buyer.headers) =>
  harness.app.inject({ method: 'POST', url: `/api/offers/${offerId}/${path}`, headers, ...(payload ? { payload } : {}) });

const pay = (w: World, offerId: string, mode: 'deposit' | 'full', priceCents = OFFER_CENTS, shopper = w.buyer) =>
  harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: shopper.headers,
    payload: { ...createBody([{ productId: w.yacht, quantity: 1 }], priceCents), mode, offerId },
  });

const stockOf = async (productId: string) =>
  harness.app.db.selectFrom('products').select(['stock_on_hand', 'stock_reserved']).where('id', '=', productId).executeTakeFirstOrThrow();

/** Moves the offer's last valid day to yesterday: it has expired. */
const expire = (offerId: string) =>
  sql`update offers set valid_until = (now() at time zone 'UTC')::date - 1 where id = ${offerId}::uuid`.execute(harness.app.db);

describe('sending an offer', () => {
  it('needs offers.write, records who sent it in the audit log, e-mails the buyer and moves the lead to offer sent', async () => {
    const w = await world();
    const viewer = await createUserWithSession(harness.app, { roles: ['user', 'accountant'] });
    expect((await send(w, {}, viewer.headers)).statusCode).toBe(403);
    expect((await send(w, {}, w.buyer.headers)).statusCode).toBe(403);

    const offer = await sent(w);
    expect(offer).toMatchObject({ state: 'sent', priceCents: OFFER_CENTS, validUntil: day(7), expired: false, boatHeld: false });

    // The refused attempts are in the log too (status 403), by the admin hook.
    const audit = await harness.app.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'actor_id', 'status', 'after'])
      .orderBy('seq')
      .execute();
    expect(audit.map((row) => row.status)).toEqual([403, 403, 200]);
    expect(audit[2]).toMatchObject({ action: 'offer.send', target_id: offer.id, actor_id: w.admin.user.id });
    expect(audit[2]!.after).toMatchObject({ priceCents: OFFER_CENTS, validUntil: day(7) });

    const mails = await harness.app.db.selectFrom('outbox').select('payload').where('kind', '=', 'mail').execute();
    const toBuyer = mails
      .map((m) => m.payload as unknown as { to: string; subject: string; text: string })
      .find((m) => m.to === w.buyer.user.email.toLowerCase());
    expect(toBuyer?.subject).toBe('Your offer for the Belmare 64 Sport');
    expect(toBuyer?.text).toMatch(/2\.750\.000,00\s€/);

    const lead = await harness.app.inject({ method: 'GET', url: `/api/admin/leads/${w.leadId}`, headers: w.admin.headers });
    expect(lead.json()).toMatchObject({ state: 'offer_sent' });
    expect(lead.json().timeline.map((e: { kind: string }) => e.kind)).toContain('offer_sent');
  });

  it('refuses a past validity date, a second open offer, and a price of nothing', async () => {
    const w = await world();
    expect((await send(w, { validUntil: day(-1) })).json().error.message).toBe('The validity date is in the past.');
    expect((await send(w, { validUntil: '2026-02-30' })).statusCode).toBe(400);
    expect((await send(w, { priceCents: 0 })).statusCode).toBe(400);
    await sent(w);
    const second = await send(w, { priceCents: 270_000_000 });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('OFFER_OPEN');
  });

  it("shows the offer to its buyer only: anyone else's reads as absent", async () => {
    const w = await world();
    const offer = await sent(w);
    const mine = await harness.app.inject({ method: 'GET', url: `/api/offers?enquiryId=${w.leadId}`, headers: w.buyer.headers });
    expect(mine.json().data.map((o: Offer) => o.id)).toEqual([offer.id]);
    const stranger = await createUserWithSession(harness.app);
    expect((await harness.app.inject({ method: 'GET', url: `/api/offers/${offer.id}`, headers: stranger.headers })).statusCode).toBe(404);
    expect((await answer(w, offer.id, 'accept', undefined, stranger.headers)).statusCode).toBe(404);
    expect((await pay(w, offer.id, 'deposit', OFFER_CENTS, stranger)).statusCode).toBe(404);
  });
});

describe('the buyer answers', () => {
  it('accepting holds the boat for the buyer: nobody else can buy it from the cart', async () => {
    const w = await world();
    const offer = await sent(w);
    const accepted = await answer(w, offer.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'accepted', agreedPriceCents: OFFER_CENTS, boatHeld: true });
    expect(await stockOf(w.yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });

    const other = await createUserWithSession(harness.app);
    const theirs = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers: other.headers,
      payload: { ...createBody([{ productId: w.yacht, quantity: 1 }], YACHT_CENTS), mode: 'deposit' },
    });
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().error.code).toBe('OUT_OF_STOCK');
  });

  it('a double-clicked accept accepts once and holds one unit', async () => {
    const w = await world({ stock: 3 });
    const offer = await sent(w);
    const answers = await Promise.all([answer(w, offer.id, 'accept'), answer(w, offer.id, 'accept'), answer(w, offer.id, 'accept')]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await stockOf(w.yacht)).toEqual({ stock_on_hand: 3, stock_reserved: 1 });
    const events = await harness.app.db.selectFrom('lead_events').select('kind').where('kind', '=', 'offer_accepted').execute();
    expect(events).toHaveLength(1);
  });

  it('an expired offer cannot be accepted: 410 with a clear message, nothing held', async () => {
    const w = await world();
    const offer = await sent(w);
    await expire(offer.id);
    const refused = await answer(w, offer.id, 'accept');
    expect(refused.statusCode).toBe(410);
    expect(refused.json().error).toMatchObject({
      code: 'OFFER_EXPIRED',
      message: 'This offer has expired: its validity has ended. Please ask the shop for a new offer.',
    });
    expect(await stockOf(w.yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
  });

  it('one counter-offer, below the price; the shop accepts it and it becomes the agreed price', async () => {
    const w = await world();
    const offer = await sent(w);
    expect((await answer(w, offer.id, 'counter', { priceCents: OFFER_CENTS })).statusCode).toBe(400);
    const countered = await answer(w, offer.id, 'counter', { priceCents: 265_000_000, message: 'Cash buyer.' });
    expect(countered.statusCode, countered.body).toBe(200);
    expect(countered.json()).toMatchObject({ state: 'countered', counterPriceCents: 265_000_000, counterMessage: 'Cash buyer.' });
    expect((await answer(w, offer.id, 'accept')).statusCode).toBe(409);

    const url = `/api/admin/leads/${w.leadId}/offers/${offer.id}/accept-counter`;
    const ok = await harness.app.inject({ method: 'POST', url, headers: w.admin.headers });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ state: 'accepted', agreedPriceCents: 265_000_000, boatHeld: true });
    const audit = await harness.app.db.selectFrom('audit_log').select('action').orderBy('seq').execute();
    expect(audit.map((row) => row.action)).toEqual(['offer.send', 'offer.accept-counter']);

    const order = await pay(w, offer.id, 'deposit', 265_000_000);
    expect(order.statusCode, order.body).toBe(201);
    expect(order.json()).toMatchObject({ totalCents: 265_000_000, amountCents: 26_500_000 });
  });

  it('a declined counter-offer leaves the offer at its own price, and no second counter', async () => {
    const w = await world();
    const offer = await sent(w);
    await answer(w, offer.id, 'counter', { priceCents: 200_000_000 });
    const url = `/api/admin/leads/${w.leadId}/offers/${offer.id}/decline-counter`;
    const declined = await harness.app.inject({ method: 'POST', url, headers: w.admin.headers });
    expect(declined.json()).toMatchObject({ state: 'sent', counterPriceCents: 200_000_000 });
    const again = await answer(w, offer.id, 'counter', { priceCents: 260_000_000 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('COUNTER_USED');
    expect((await answer(w, offer.id, 'accept')).json()).toMatchObject({ state: 'accepted', agreedPriceCents: OFFER_CENTS });
  });

  it('a declined offer can no longer be accepted, and frees the lead for a new offer', async () => {
    const w = await world();
    const offer = await sent(w);
    expect((await answer(w, offer.id, 'decline')).json()).toMatchObject({ state: 'declined' });
    const late = await answer(w, offer.id, 'accept');
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('OFFER_CLOSED');
    expect((await send(w, { priceCents: 270_000_000 })).statusCode).toBe(201);
  });
});

describe('paying an accepted offer', () => {
  it('opens the order at the offer’s price, reserved with a 275.000,00 € deposit; the hold passes to the order', async () => {
    const w = await world();
    const offer = await sent(w);
    await answer(w, offer.id, 'accept');

    // The cart's price or any other total is refused: the offer's price and no other.
    const wrong = await pay(w, offer.id, 'deposit', YACHT_CENTS);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().error).toMatchObject({ code: 'PRICES_CHANGED', totalCents: OFFER_CENTS });
    // A full card payment is above the card ceiling.
    expect((await pay(w, offer.id, 'full')).json().error.code).toBe('AMOUNT_TOO_LARGE');

    const quote = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/quote',
      headers: w.buyer.headers,
      payload: { items: [{ productId: w.yacht, quantity: 1 }], offerId: offer.id },
    });
    expect(quote.json()).toMatchObject({ totalCents: OFFER_CENTS, depositRequired: true, depositCents: DEPOSIT_CENTS });

    const created = await pay(w, offer.id, 'deposit');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ totalCents: OFFER_CENTS, amountCents: DEPOSIT_CENTS, mode: 'deposit' });
    const orderId = created.json().orderId as string;
    const item = await harness.app.db
      .selectFrom('order_items')
      .select(['unit_price_cents', 'quantity'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(Number(item.unit_price_cents)).toBe(OFFER_CENTS);
    // One unit held, by the order now, not twice.
    expect(await stockOf(w.yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });

    const paid = await confirmCardLikeTheBrowser(harness.standinUrl, created.json().clientSecret, VISA);
    expect(paid.status).toBe(200);
    await harness.app.inject({ method: 'POST', url: '/api/payments/confirm', headers: w.buyer.headers, payload: { orderId } });
    const order = await harness.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: w.buyer.headers });
    expect(order.json()).toMatchObject({ status: 'reserved', totalCents: OFFER_CENTS });

    const again = await harness.app.inject({ method: 'GET', url: `/api/offers/${offer.id}`, headers: w.buyer.headers });
    expect(again.json()).toMatchObject({ orderId, boatHeld: false });
    // The lead is won, once, and the funnel counts the order.
    const lead = await harness.app.inject({ method: 'GET', url: `/api/admin/leads/${w.leadId}`, headers: w.admin.headers });
    expect(lead.json().state).toBe('won');
    expect(lead.json().timeline.filter((e: { kind: string }) => e.kind === 'won')).toHaveLength(1);
    const funnel = await harness.app.inject({ method: 'GET', url: '/api/admin/leads/funnel?months=1', headers: w.admin.headers });
    expect(funnel.json().data[0]).toMatchObject({ enquiries: 1, offers: 1, orders: 1 });
  });

  it('racing Pay presses on one offer make one order (the same one), whatever the addresses', async () => {
    const w = await world();
    const offer = await sent(w);
    await answer(w, offer.id, 'accept');
    const presses = await Promise.all([pay(w, offer.id, 'deposit'), pay(w, offer.id, 'deposit'), pay(w, offer.id, 'deposit')]);
    expect(presses.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(presses.map((r) => r.json().orderId)).size).toBe(1);
    const orders = await harness.app.db.selectFrom('orders').select(['id', 'status']).where('offer_id', '=', offer.id).execute();
    expect(orders).toHaveLength(1);
    expect(await stockOf(w.yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 1 });
  });

  it('a paid (reserved) offer cannot be ordered a second time', async () => {
    const w = await world();
    const offer = await sent(w);
    await answer(w, offer.id, 'accept');
    const created = await pay(w, offer.id, 'deposit');
    await confirmCardLikeTheBrowser(harness.standinUrl, created.json().clientSecret, VISA);
    await harness.app.inject({
      method: 'POST',
      url: '/api/payments/confirm',
      headers: w.buyer.headers,
      payload: { orderId: created.json().orderId },
    });
    const other = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers: w.buyer.headers,
      payload: {
        ...createBody([{ productId: w.yacht, quantity: 1 }], OFFER_CENTS),
        shipping: { name: 'Elsewhere', address: { line1: '9 Pier', city: 'Nice', state: 'PACA', postal_code: '06000', country: 'FR' } },
        mode: 'deposit',
        offerId: offer.id,
      },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('OFFER_ORDERED');
  });

  it('refuses to pay an offer not accepted, an expired one, or one with another line', async () => {
    const w = await world();
    const offer = await sent(w);
    const early = await pay(w, offer.id, 'deposit');
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('OFFER_NOT_ACCEPTED');
    await answer(w, offer.id, 'accept');
    const twoLines = await harness.app.inject({
      method: 'POST',
      url: '/api/payments/create',
      headers: w.buyer.headers,
      payload: { ...createBody([{ productId: w.yacht, quantity: 2 }], OFFER_CENTS * 2), mode: 'deposit', offerId: offer.id },
    });
    expect(twoLines.statusCode).toBe(400);
    await expire(offer.id);
    const late = await pay(w, offer.id, 'deposit');
    expect(late.statusCode).toBe(410);
    expect(late.json().error.code).toBe('OFFER_EXPIRED');
    expect((await pay(w, 'not-a-uuid', 'deposit')).statusCode).toBe(404);
  });

  it('an accepted offer past its validity gives the boat back', async () => {
    const w = await world();
    const offer = await sent(w);
    await answer(w, offer.id, 'accept');
    expect(await releaseExpiredOfferHolds(harness.app.db)).toBe(0);
    await expire(offer.id);
    expect(await releaseExpiredOfferHolds(harness.app.db)).toBe(1);
    expect(await releaseExpiredOfferHolds(harness.app.db)).toBe(0);
    expect(await stockOf(w.yacht)).toEqual({ stock_on_hand: 1, stock_reserved: 0 });
  });
});
