import { sql } from 'kysely';
import type { SellerConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { badRequest, conflict } from '../../lib/errors.js';
import {
  attachBuyerCheck,
  BUYER_CHECK_TTL_HOURS,
  decideLines,
  productVatFacts,
  todayUtc,
  vatForLines,
  type BuyerContext,
} from './buyer-checks.js';

// An order's VAT, decided from the order's own gross lines (order_items: the prices the order was
// placed at, whatever set them: the catalogue, or an accepted offer), for the buyer its check
// names (else a consumer in the shipping country), on the day the order was placed. The checkout
// charges the total this gives, and every document of the order splits its amounts the same way.

const UNKNOWN_PRODUCT = '00000000-0000-0000-0000-000000000000';

function shippingCountry(shipping: unknown): string {
  const parsed = (typeof shipping === 'string' ? JSON.parse(shipping) : shipping) as { address?: { country?: string } } | null;
  return parsed?.address?.country ?? '';
}

/** The order's VAT decision: each line's, their sums, the buyer and the VAT ID it was decided for. */
export async function orderVat(trx: Db, seller: SellerConfig, orderId: string) {
  const order = await trx
    .selectFrom('orders')
    .select([
      'id',
      'shipping',
      'total_cents',
      'vat_buyer_check_id',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
    ])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const check = order.vat_buyer_check_id
    ? await trx.selectFrom('vat_buyer_checks').selectAll().where('id', '=', order.vat_buyer_check_id).executeTakeFirst()
    : undefined;
  const buyer: BuyerContext = check
    ? { buyerType: check.buyer_type, country: check.country_code, vies: check.vies_result }
    : { buyerType: 'consumer', country: shippingCountry(order.shipping) || seller.country, vies: 'not_checked' };
  const items = await trx
    .selectFrom('order_items')
    .select(['product_id', 'unit_price_cents', 'quantity'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const facts = await productVatFacts(
    trx,
    items.flatMap((item) => (item.product_id ? [item.product_id] : [])),
  );
  // A boat deleted from the catalogue since keeps the treatment that applies when nothing is known;
  // an order without lines (none is placed so, but old rows may be) is one standard line of its total.
  const lines =
    items.length > 0
      ? items.map((item) => {
          const product = item.product_id ? facts.get(item.product_id) : undefined;
          return {
            productId: item.product_id ?? UNKNOWN_PRODUCT,
            quantity: item.quantity,
            grossCents: item.unit_price_cents * item.quantity,
            treatment: product?.treatment ?? ('vat_paid_own_stock' as const),
            boat: product?.boat ?? { lengthCm: null, firstUsedOn: null, hoursSailed: null },
          };
        })
      : [
          {
            productId: UNKNOWN_PRODUCT,
            quantity: 1,
            grossCents: order.total_cents,
            treatment: 'vat_paid_own_stock' as const,
            boat: { lengthCm: null, firstUsedOn: null, hoursSailed: null },
          },
        ];
  const day = order.day ?? todayUtc();
  return { buyer, check: check ?? null, day, ...(await decideLines(trx, seller, buyer, lines, day)) };
}

/**
 * At order creation, in the order's transaction: places the order under the buyer check the
 * checkout obtained (the shopper's own, recent, for the country the boat is delivered to) and
 * answers what the buyer pays: net for an exempt sale (a business with a VAT ID VIES confirmed,
 * a new boat to another member state, an export), gross for consumers.
 */
export async function decideOrderAmount(
  trx: Db,
  seller: SellerConfig,
  order: { orderId: string; userId: string; buyerCheckId: string | undefined; shipToCountry: string },
): Promise<number> {
  if (order.buyerCheckId) {
    const check = await attachBuyerCheck(trx, { orderId: order.orderId, userId: order.userId, checkId: order.buyerCheckId });
    if (check.country_code !== order.shipToCountry) {
      throw badRequest('The VAT check was made for another delivery country: please check the VAT ID again for this address');
    }
  }
  return (await orderVat(trx, seller, order.orderId)).totalCents;
}

/**
 * What a cart comes to for the buyer of a check (the shopper's own, recent), at today's catalogue
 * prices: the payment page's quote once the buyer said who buys.
 */
export async function cartAmountForCheck(
  db: Db,
  seller: SellerConfig,
  input: { userId: string; checkId: string; items: { productId: string; quantity: number }[] },
): Promise<number> {
  const check = await db
    .selectFrom('vat_buyer_checks')
    .selectAll()
    .where('id', '=', input.checkId)
    .where('user_id', '=', input.userId)
    .where('checked_at', '>', sql<Date>`now() - make_interval(hours => ${BUYER_CHECK_TTL_HOURS})`)
    .executeTakeFirst();
  if (!check) throw conflict('BUYER_CHECK_EXPIRED', 'Please confirm again whether you buy privately or as a business');
  const buyer: BuyerContext = { buyerType: check.buyer_type, country: check.country_code, vies: check.vies_result };
  return (await vatForLines(db, seller, buyer, input.items)).totalCents;
}

/**
 * What a consumer delivered to `country` pays for these lines: the catalogue's gross price, or
 * net where the sale is exempt here (a new boat to another member state, an export). The payment
 * page asks it once the shipping country is chosen, so the amount shown is the amount charged.
 */
export async function cartAmountForConsumer(
  db: Db,
  seller: SellerConfig,
  input: { country: string; items: { productId: string; quantity: number }[] },
): Promise<number> {
  const buyer: BuyerContext = { buyerType: 'consumer', country: input.country, vies: 'not_checked' };
  return (await vatForLines(db, seller, buyer, input.items)).totalCents;
}
