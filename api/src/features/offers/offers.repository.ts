import type { Offer } from '@boatshop/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { addEvent } from '../leads/leads.repository.js';
import { outOfStock } from '../stock/stock.repository.js';
import type { OffersTable } from './offers.table.js';

// Offers and the boat they hold. An offer is open to the buyer from `sent` until the end of its
// last valid day (midnight UTC after valid_until). Every state change is one conditional UPDATE
// on the state it starts from, so a double click or two racing requests make one change.
//
//   sent      -> accepted   the buyer accepts (agreed price = the offer's); the boat is held
//   sent      -> declined   the buyer declines
//   sent      -> countered  the buyer's one counter-offer
//   countered -> accepted   the shop accepts the counter (agreed price = the counter's); held
//   countered -> sent       the shop declines the counter: the offer stands at its own price,
//                           and the buyer cannot counter again
//
// The hold is one unit in products.stock_reserved (the same count the checkout's holds use), so
// nobody else can buy the boat meanwhile; the order opened from the offer takes it over
// (takeOverOfferHold), and an offer past its validity gives it back (releaseExpiredOfferHolds).

type OfferRow = Selectable<OffersTable> & { valid_until_text: string; expired: boolean };

/** An offer ends at midnight UTC after its last valid day. */
export const OFFER_EXPIRED_SQL = sql<boolean>`valid_until < (now() at time zone 'UTC')::date`;

export const offerExpired = () =>
  new ApiError(410, 'OFFER_EXPIRED', 'This offer has expired: its validity has ended. Please ask the shop for a new offer.');

const offerColumns = [
  'offers.id',
  'offers.lead_id',
  'offers.product_id',
  'offers.product_name',
  'offers.price_cents',
  'offers.counter_price_cents',
  'offers.counter_message',
  'offers.agreed_price_cents',
  'offers.valid_until',
  'offers.conditions',
  'offers.state',
  'offers.stock_held',
  'offers.created_by',
  'offers.created_at',
  'offers.responded_at',
] as const;

function selectOffers(db: Db) {
  return db
    .selectFrom('offers')
    .select(offerColumns)
    .select([sql<string>`to_char(offers.valid_until, 'YYYY-MM-DD')`.as('valid_until_text'), OFFER_EXPIRED_SQL.as('expired')]);
}

/** The live order of each offer (failed, expired and cancelled ones left out), newest first. */
async function liveOrdersOf(db: Db, offerIds: string[]): Promise<Map<string, string>> {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'offer_id'])
    .where('offer_id', 'in', offerIds)
    .where('status', 'not in', ['failed', 'expired', 'cancelled'])
    .orderBy('created_at', 'desc')
    .execute();
  const map = new Map<string, string>();
  for (const row of rows) if (row.offer_id && !map.has(row.offer_id)) map.set(row.offer_id, row.id);
  return map;
}

function toOffer(row: OfferRow, orderId: string | null): Offer {
  const cents = (value: number | string | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    leadId: row.lead_id,
    productId: row.product_id,
    productName: row.product_name,
    priceCents: Number(row.price_cents),
    counterPriceCents: cents(row.counter_price_cents),
    counterMessage: row.counter_message,
    agreedPriceCents: cents(row.agreed_price_cents),
    validUntil: row.valid_until_text,
    expired: row.expired,
    conditions: row.conditions,
    state: row.state,
    orderId,
    boatHeld: row.stock_held,
    createdAt: row.created_at.toISOString(),
    respondedAt: row.responded_at ? row.responded_at.toISOString() : null,
  };
}

async function toOffers(db: Db, rows: OfferRow[]): Promise<Offer[]> {
  const orders = await liveOrdersOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toOffer(row, orders.get(row.id) ?? null));
}

export async function listOffersOfLead(db: Db, leadId: string): Promise<Offer[]> {
  const rows = (await selectOffers(db).where('offers.lead_id', '=', leadId).orderBy('offers.created_at', 'desc').execute()) as OfferRow[];
  return toOffers(db, rows);
}

export async function findOffer(db: Db, offerId: string): Promise<Offer | undefined> {
  const row = (await selectOffers(db).where('offers.id', '=', offerId).executeTakeFirst()) as OfferRow | undefined;
  return row ? (await toOffers(db, [row]))[0] : undefined;
}

/** The offer when it was made on one of this shopper's own conversations; anyone else's is undefined. */
export async function findOfferOfShopper(db: Db, userId: string, offerId: string): Promise<Offer | undefined> {
  const row = (await selectOffers(db)
    .innerJoin('leads', 'leads.id', 'offers.lead_id')
    .where('offers.id', '=', offerId)
    .where('leads.user_id', '=', userId)
    .where('leads.confirmed_at', 'is not', null)
    .executeTakeFirst()) as OfferRow | undefined;
  return row ? (await toOffers(db, [row]))[0] : undefined;
}

/**
 * Opens a new offer on the lead. The lead's row is locked first, so two admins sending at once
 * take turns and the second finds the first's offer open: a lead has at most one open offer
 * (sent, countered, or accepted and still valid), 409 OFFER_OPEN otherwise.
 */
export async function insertOffer(
  trx: Transaction<Database>,
  input: {
    leadId: string;
    productId: string;
    productName: string;
    priceCents: number;
    validUntil: string;
    conditions: string;
    adminId: string;
  },
): Promise<string> {
  const lead = await trx.selectFrom('leads').select(['id', 'state']).where('id', '=', input.leadId).forUpdate().executeTakeFirstOrThrow();
  if (lead.state === 'won') throw conflict('LEAD_WON', 'This lead ended in an order already.');
  const open = await trx
    .selectFrom('offers')
    .select('id')
    .where('lead_id', '=', input.leadId)
    .where('state', 'in', ['sent', 'countered', 'accepted'])
    .where(sql<boolean>`not (${OFFER_EXPIRED_SQL})`)
    .executeTakeFirst();
  if (open) throw conflict('OFFER_OPEN', 'This lead has an open offer; it must be declined or expire before a new one is sent.');
  const { id } = await trx
    .insertInto('offers')
    .values({
      lead_id: input.leadId,
      product_id: input.productId,
      product_name: input.productName,
      price_cents: input.priceCents,
      valid_until: input.validUntil,
      conditions: input.conditions,
      created_by: input.adminId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('leads')
    .set({ state: sql`case when state in ('won') then state else 'offer_sent' end`, last_activity_at: new Date() })
    .where('id', '=', input.leadId)
    .execute();
  await addEvent(trx, input.leadId, 'offer_sent', formatEuro(input.priceCents), input.adminId);
  return id;
}

/**
 * Holds one unit of the offer's boat for the buyer, or throws 409 OUT_OF_STOCK when someone else
 * holds or bought it (the caller's transaction then undoes the acceptance). The product row is
 * locked first, as the checkout's holds do. A built-to-order boat needs no hold.
 */
export async function holdOfferStock(trx: Transaction<Database>, offerId: string, productId: string | null): Promise<void> {
  if (!productId) throw conflict('PRODUCT_GONE', 'This boat is no longer in the catalogue.');
  const product = await trx
    .selectFrom('products')
    .select(['name', 'stock_on_hand', 'stock_reserved'])
    .where('id', '=', productId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!product) throw conflict('PRODUCT_GONE', 'This boat is no longer in the catalogue.');
  if (product.stock_on_hand === null) return;
  const available = product.stock_on_hand - product.stock_reserved;
  if (available < 1) throw outOfStock(product.name, 0);
  await trx
    .updateTable('products')
    .set({ stock_reserved: sql`stock_reserved + 1` })
    .where('id', '=', productId)
    .execute();
  await trx.updateTable('offers').set({ stock_held: true }).where('id', '=', offerId).execute();
}

/** Gives the offer's held unit back, once: the conditional UPDATE lets one caller through. */
async function releaseOfferStock(trx: Transaction<Database>, offerId: string): Promise<boolean> {
  const claimed = await trx
    .updateTable('offers')
    .set({ stock_held: false })
    .where('id', '=', offerId)
    .where('stock_held', '=', true)
    .returning('product_id')
    .executeTakeFirst();
  if (!claimed) return false;
  if (claimed.product_id) {
    await trx
      .updateTable('products')
      .set({ stock_reserved: sql`greatest(stock_reserved - 1, 0)` })
      .where('id', '=', claimed.product_id)
      .execute();
  }
  return true;
}

/**
 * The order opened from the offer takes its hold over: the offer's unit goes back in the same
 * transaction in which the order holds it again (reserveOrderStock), so no one else can take the
 * boat between the two.
 */
export const takeOverOfferHold = releaseOfferStock;

/** Gives back the holds of offers whose validity has ended; returns how many. */
export async function releaseExpiredOfferHolds(db: Kysely<Database>): Promise<number> {
  const held = await db.selectFrom('offers').select('id').where('stock_held', '=', true).where(OFFER_EXPIRED_SQL).execute();
  let released = 0;
  for (const { id } of held) if (await db.transaction().execute((trx) => releaseOfferStock(trx, id))) released += 1;
  return released;
}

export interface PayableOffer {
  id: string;
  leadId: string;
  productId: string;
  unitPriceCents: number;
}

/**
 * The offer the shopper pays through the checkout, locked for the rest of the transaction: their
 * own, accepted, within its validity, for exactly the one boat the request names. Anything else
 * is a clear refusal (404 someone else's or unknown, 410 expired, 409 not accepted or ordered
 * already, 400 other lines).
 */
export async function lockPayableOffer(
  trx: Db,
  userId: string,
  offerId: string,
  lines: { productId: string; quantity: number }[],
): Promise<PayableOffer> {
  const row = await trx
    .selectFrom('offers')
    .innerJoin('leads', 'leads.id', 'offers.lead_id')
    .select([
      'offers.id',
      'offers.lead_id',
      'offers.product_id',
      'offers.state',
      'offers.agreed_price_cents',
      OFFER_EXPIRED_SQL.as('expired'),
    ])
    .where('offers.id', '=', offerId)
    .where('leads.user_id', '=', userId)
    .forUpdate('offers')
    .executeTakeFirst();
  if (!row) throw notFound('Offer not found');
  if (row.expired) throw offerExpired();
  if (row.state !== 'accepted' || row.agreed_price_cents === null) {
    throw conflict('OFFER_NOT_ACCEPTED', 'This offer must be accepted before it can be paid.');
  }
  if (!row.product_id) throw conflict('PRODUCT_GONE', 'This boat is no longer in the catalogue.');
  const [line] = lines;
  if (lines.length !== 1 || line!.productId.toLowerCase() !== row.product_id || line!.quantity !== 1) {
    throw new ApiError(400, 'VALIDATION', 'An offer is paid on its own: one line, its boat, quantity 1.', {
      details: ['An offer is paid on its own: one line, its boat, quantity 1.'],
    });
  }
  return { id: row.id, leadId: row.lead_id, productId: row.product_id, unitPriceCents: Number(row.agreed_price_cents) };
}

/** 409 when the offer already has a live order (one other than those just replaced). */
export async function refuseSecondOrder(trx: Db, offerId: string): Promise<void> {
  const live = await liveOrdersOf(trx, [offerId]);
  if (live.size > 0) throw conflict('OFFER_ORDERED', 'This offer has been ordered already: see your orders.');
}

/**
 * The order opened from an offer was reserved or paid: its lead is won (once: the conditional
 * UPDATE lets one caller through, and a lost lead the shopper paid for anyway is won too).
 */
export async function markOfferLeadWon(trx: Db, orderId: string): Promise<void> {
  const order = await trx.selectFrom('orders').select('offer_id').where('id', '=', orderId).executeTakeFirst();
  if (!order?.offer_id) return;
  const offer = await trx.selectFrom('offers').select('lead_id').where('id', '=', order.offer_id).executeTakeFirstOrThrow();
  const won = await trx
    .updateTable('leads')
    .set({ state: 'won', last_activity_at: new Date(), awaiting_reply_since: null })
    .where('id', '=', offer.lead_id)
    .where('state', '<>', 'won')
    .returning('id')
    .executeTakeFirst();
  if (won) await addEvent(trx, offer.lead_id, 'won', orderId, null);
}
