import { sql } from 'kysely';
import { EU_COUNTRIES, type BuyerCheck, type BuyerCheckBody, type CartLine, type VatLine, type VatTreatment } from '@boatshop/contract';
import type { SellerConfig, ViesConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { decideVat, isEuCountry, type NewBoatFacts, type ViesResult } from './vat-decision.js';
import { standardRateOn } from './vat.repository.js';
import { checkVatId, splitVatId, vatIdCountry, type ViesCheck } from './vies.js';

// The buyer a checkout declares, checked (a business's VAT ID against VIES), stored with VIES's
// consultation number, and the VAT each cart line then gets. The order is placed with the
// check's id (attachBuyerCheck), inside the order's own transaction.

/** A check older than this is asked again before an order may use it. */
export const BUYER_CHECK_TTL_HOURS = 24;

export interface BuyerContext {
  buyerType: BuyerCheck['buyerType'];
  country: string;
  vies: ViesResult;
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** What decides one line's VAT: the boat's treatment and facts, and its gross amount. */
export interface LineFacts {
  productId: string;
  quantity: number;
  grossCents: number;
  treatment: VatTreatment;
  boat: NewBoatFacts;
}

/** Each line's VAT for a buyer on a day, the rates read from the rates table; and their sums. */
export async function decideLines(db: Db, seller: SellerConfig, buyer: BuyerContext, facts: LineFacts[], day = todayUtc()) {
  const sellerRate = await standardRateOn(db, seller.country, day);
  if (sellerRate === undefined) throw new Error(`No VAT rate for the seller's country ${seller.country} on ${day}`);
  const destinationRate = isEuCountry(buyer.country) ? ((await standardRateOn(db, buyer.country, day)) ?? null) : null;
  const lines: VatLine[] = facts.map((line) => {
    const decision = decideVat({
      sellerCountry: seller.country,
      buyerType: buyer.buyerType,
      buyerCountry: buyer.country,
      vies: buyer.vies,
      treatment: line.treatment,
      boat: line.boat,
      shipToCountry: buyer.country,
      supplyDate: day,
      grossCents: line.grossCents,
      sellerRateBasisPoints: sellerRate,
      destinationRateBasisPoints: destinationRate,
    });
    return {
      productId: line.productId,
      quantity: line.quantity,
      vatCase: decision.case,
      rateBasisPoints: decision.rateBasisPoints,
      vatCountry: decision.vatCountry,
      netCents: decision.netCents,
      vatCents: decision.vatCents,
      totalCents: decision.totalCents,
      showsVat: decision.showsVat,
      wording: decision.wording,
    };
  });
  const sum = (key: 'netCents' | 'vatCents' | 'totalCents') => lines.reduce((total, line) => total + line[key], 0);
  return { lines, netCents: sum('netCents'), vatCents: sum('vatCents'), totalCents: sum('totalCents') };
}

/** The VAT facts of products, by id (to_char: pg and PGlite read dates differently). */
export async function productVatFacts(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, { priceCents: number; treatment: VatTreatment; boat: NewBoatFacts }>();
  const rows = await db
    .selectFrom('products')
    .select([
      'id',
      'price_cents',
      'vat_treatment',
      sql<string | null>`to_char(first_used_on, 'YYYY-MM-DD')`.as('first_used_on'),
      'hours_sailed',
      'vat_length_cm',
    ])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        priceCents: row.price_cents,
        treatment: row.vat_treatment,
        boat: { lengthCm: row.vat_length_cm, firstUsedOn: row.first_used_on, hoursSailed: row.hours_sailed },
      },
    ]),
  );
}

/** A cart's VAT for a buyer at today's catalogue prices. */
export async function vatForLines(db: Db, seller: SellerConfig, buyer: BuyerContext, items: CartLine[], day = todayUtc()) {
  const products = await productVatFacts(
    db,
    items.map((item) => item.productId),
  );
  const facts = items.map((item) => {
    const product = products.get(item.productId);
    if (!product) throw badRequest('A boat in the cart is no longer for sale');
    return {
      productId: item.productId,
      quantity: item.quantity,
      grossCents: product.priceCents * item.quantity,
      treatment: product.treatment,
      boat: product.boat,
    };
  });
  return decideLines(db, seller, buyer, facts, day);
}

/**
 * Checks the buyer a checkout declared and stores the check: a consumer needs nothing checked; a
 * business's VAT ID must belong to the delivery country and is asked of VIES (fail closed).
 */
export async function checkBuyer(
  db: Db,
  settings: { seller: SellerConfig; vies: ViesConfig },
  userId: string,
  body: BuyerCheckBody,
): Promise<BuyerCheck> {
  let vatId: string | null = null;
  let vies: ViesCheck | { result: 'not_checked'; consultationNumber: null; name: null; address: null } = {
    result: 'not_checked',
    consultationNumber: null,
    name: null,
    address: null,
  };
  if (body.buyerType === 'business') {
    const parts = body.vatId ? splitVatId(body.vatId) : null;
    if (!parts) throw badRequest('Enter the VAT ID with its country prefix, e.g. FR12345678901');
    if (vatIdCountry(parts.countryCode) !== body.country) {
      throw badRequest('The VAT ID must belong to the country the boat is delivered to');
    }
    vatId = `${parts.countryCode}${parts.vatNumber}`;
    // Only member states have VAT IDs VIES knows; a business elsewhere is an export in any case.
    if ((EU_COUNTRIES as readonly string[]).includes(body.country)) vies = await checkVatId(settings.vies, settings.seller.vatId, vatId);
  } else if (body.vatId) {
    throw badRequest('A private buyer gives no VAT ID');
  }
  const quote = await vatForLines(db, settings.seller, { buyerType: body.buyerType, country: body.country, vies: vies.result }, body.items);
  const row = await db
    .insertInto('vat_buyer_checks')
    .values({
      user_id: userId,
      buyer_type: body.buyerType,
      country_code: body.country,
      vat_id: vatId,
      vies_result: vies.result,
      consultation_number: vies.consultationNumber,
      trader_name: vies.name,
      trader_address: vies.address,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    checkId: row.id,
    buyerType: body.buyerType,
    country: body.country,
    vatId,
    vies: vies.result,
    consultationNumber: vies.consultationNumber,
    traderName: vies.name,
    ...quote,
  };
}

/**
 * Places an order under a buyer check (call inside the transaction that creates the order): the
 * check must be the shopper's own and recent; the order keeps its id and VIES's consultation number.
 */
export async function attachBuyerCheck(trx: Db, order: { orderId: string; userId: string; checkId: string }) {
  const check = await trx
    .selectFrom('vat_buyer_checks')
    .selectAll()
    .where('id', '=', order.checkId)
    .where('user_id', '=', order.userId)
    .where('checked_at', '>', sql<Date>`now() - make_interval(hours => ${BUYER_CHECK_TTL_HOURS})`)
    .executeTakeFirst();
  if (!check) throw conflict('BUYER_CHECK_EXPIRED', 'Please confirm again whether you buy privately or as a business');
  await trx
    .updateTable('orders')
    .set({ vat_buyer_check_id: check.id, vies_consultation_number: check.consultation_number })
    .where('id', '=', order.orderId)
    .where('user_id', '=', order.userId)
    .execute();
  return check;
}
