import { startViesStandin } from '@boatshop/dev-services';
import { afterAll, describe, expect } from 'vitest';
import { attachBuyerCheck } from '../../../src/features/vat/buyer-checks.js';
import { checkVatId } from '../../../src/features/vat/vies.js';
import { insertPendingOrder } from '../../helpers/orders.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp } from '../../support/fixtures.js';

const vies = await startViesStandin({ port: 0 });
afterAll(() => vies.close());
const it = testWithApp({ config: { vies: { apiBase: vies.url, timeoutMs: 2_000 } } });

const URL = '/api/vat/buyer-checks';
// 119.000,00 € gross in Germany (19 %): 100.000,00 € net.
const PRICE = 11_900_000;

describe('POST /api/vat/buyer-checks', () => {
  it('a French consumer pays the gross price, with French VAT inside it', async ({ app, shopper }) => {
    const boat = await insertProduct(app, { price_cents: PRICE });
    const response = await app.inject({
      method: 'POST',
      url: URL,
      headers: shopper.headers,
      payload: { buyerType: 'consumer', country: 'FR', items: [{ productId: boat.id, quantity: 1 }] },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      vies: 'not_checked',
      totalCents: PRICE,
      vatCents: PRICE - 9_916_667,
      consultationNumber: null,
    });
  });

  it('a French business with a valid VAT ID sees the net price and the check keeps its consultation number', async ({ app, shopper }) => {
    const boat = await insertProduct(app, { price_cents: PRICE });
    const response = await app.inject({
      method: 'POST',
      url: URL,
      headers: shopper.headers,
      payload: { buyerType: 'business', country: 'FR', vatId: 'fr 40 303265045', items: [{ productId: boat.id, quantity: 1 }] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const check = response.json();
    expect(check).toMatchObject({ vies: 'valid', vatId: 'FR40303265045', totalCents: 10_000_000, vatCents: 0 });
    expect(check.lines[0]).toMatchObject({ vatCase: 'intra_community', wording: expect.stringContaining('reverse charge') });
    expect(check.consultationNumber).toMatch(/^WAPI/);
    expect(vies.requests.at(-1)).toEqual({ countryCode: 'FR', vatNumber: '40303265045' });
    const stored = await app.db.selectFrom('vat_buyer_checks').selectAll().where('id', '=', check.checkId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: shopper.user.id, vies_result: 'valid', consultation_number: check.consultationNumber });
  });

  it.for([
    ['invalid', 'FR40303269999'],
    ['unavailable', 'FR40303260000'],
  ])('fails closed: a business whose VAT ID is %s pays VAT like a consumer', async ([result, vatId], { app, shopper }) => {
    const boat = await insertProduct(app, { price_cents: PRICE });
    const response = await app.inject({
      method: 'POST',
      url: URL,
      headers: shopper.headers,
      payload: { buyerType: 'business', country: 'FR', vatId, items: [{ productId: boat.id, quantity: 1 }] },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ vies: result, totalCents: PRICE, vatCents: PRICE - 9_916_667, consultationNumber: null });
  });

  it('refuses a VAT ID of another country, a private buyer with a VAT ID, and strangers', async ({ app, shopper, csrf }) => {
    const boat = await insertProduct(app, { price_cents: PRICE });
    const items = [{ productId: boat.id, quantity: 1 }];
    const other = await app.inject({
      method: 'POST',
      url: URL,
      headers: shopper.headers,
      payload: { buyerType: 'business', country: 'FR', vatId: 'DE129273398', items },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.message).toContain('must belong to the country');
    const consumer = await app.inject({
      method: 'POST',
      url: URL,
      headers: shopper.headers,
      payload: { buyerType: 'consumer', country: 'FR', vatId: 'FR40303265045', items },
    });
    expect(consumer.statusCode).toBe(400);
    const stranger = await app.inject({
      method: 'POST',
      url: URL,
      headers: csrf.headers,
      payload: { buyerType: 'consumer', country: 'FR', items },
    });
    expect(stranger.statusCode).toBe(401);
  });
});

describe('checkVatId', () => {
  it('answers unavailable, never valid, when VIES cannot be reached', async () => {
    const check = await checkVatId({ apiBase: 'http://127.0.0.1:9', timeoutMs: 1_000 }, 'DE129273398', 'FR40303265045');
    expect(check.result).toBe('unavailable');
  });
});

describe('attachBuyerCheck', () => {
  it("puts the check's consultation number on the order, and refuses another shopper's check", async ({ app, shopper }) => {
    const boat = await insertProduct(app, { price_cents: PRICE });
    const check = (
      await app.inject({
        method: 'POST',
        url: URL,
        headers: shopper.headers,
        payload: { buyerType: 'business', country: 'FR', vatId: 'FR40303265045', items: [{ productId: boat.id, quantity: 1 }] },
      })
    ).json();
    const order = await insertPendingOrder(app, shopper.user.id);
    await app.db
      .transaction()
      .execute((trx) => attachBuyerCheck(trx, { orderId: order.id, userId: shopper.user.id, checkId: check.checkId }));
    const row = await app.db
      .selectFrom('orders')
      .select(['vat_buyer_check_id', 'vies_consultation_number'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ vat_buyer_check_id: check.checkId, vies_consultation_number: check.consultationNumber });

    const someoneElse = await createUserWithSession(app, { displayName: 'Other' });
    const theirs = await insertPendingOrder(app, someoneElse.user.id);
    await expect(
      app.db
        .transaction()
        .execute((trx) => attachBuyerCheck(trx, { orderId: theirs.id, userId: someoneElse.user.id, checkId: check.checkId })),
    ).rejects.toMatchObject({ statusCode: 409 });
  });
});
