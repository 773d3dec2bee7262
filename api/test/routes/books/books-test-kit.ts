import { startViesStandin, type RunningViesStandin } from '@boatshop/dev-services';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { resetDatabase } from '../../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { confirmCardLikeTheBrowser, intentIdOf, startPaymentsHarness, type PaymentsHarness } from '../payments/payments-test-kit.js';

// The books' API tests: the payments harness (Stripe stand-in) with the VIES stand-in, a fresh
// database, an admin and a shopper before each test, and the steps of a French business's checkout.

export const VISA = '4242424242424242';
export const YACHT_CENTS = 289_000_000; // 2.890.000,00 €, gross with German VAT
export const YACHT_NET_CENTS = 242_857_143; // / 1,19
export const YACHT_NET_DEPOSIT_CENTS = 24_285_700; // 10 % of the net, in whole euros
export const BOAT_CENTS = 11_900_000; // 119.000,00 €
export const BOAT_NET_CENTS = 10_000_000;
export const VALID_ID = 'FR40303265045';

export const FR_SHIPPING = {
  name: 'Chantier Naval Dupont SARL',
  address: { line1: '3 Quai des Chartrons', city: 'Bordeaux', state: 'Gironde', postal_code: '33000', country: 'FR' },
};

export interface BooksKit {
  readonly harness: PaymentsHarness;
  readonly vies: RunningViesStandin;
  readonly admin: UserWithSession;
  readonly shopper: UserWithSession;
}

/** Registers the suite's hooks; the returned object's fields are set once they have run. */
export function useBooksKit(): BooksKit {
  const kit = {} as { harness: PaymentsHarness; vies: RunningViesStandin; admin: UserWithSession; shopper: UserWithSession };
  beforeAll(async () => {
    kit.vies = await startViesStandin({ port: 0 });
    kit.harness = await startPaymentsHarness({ vies: { apiBase: kit.vies.url, timeoutMs: 2_000 } });
  });
  beforeEach(async () => {
    await resetDatabase(kit.harness.app);
    kit.admin = await createUserWithSession(kit.harness.app, { roles: ['user', 'admin'] });
    kit.shopper = await createUserWithSession(kit.harness.app);
  });
  afterAll(async () => {
    await kit.harness?.close();
    await kit.vies?.close();
  });
  return kit;
}

export async function insertBoat(kit: BooksKit, priceCents: number) {
  const row = await kit.harness.app.db
    .insertInto('products')
    .values({ name: 'Seahaven 58', thumbnail_url: '/api/images/boat.svg', price_cents: priceCents, category: 'yachts', created_by: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function buyerCheck(kit: BooksKit, who: UserWithSession, productId: string, vatId: string | null, country = 'FR') {
  const response = await kit.harness.app.inject({
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

export function create(
  kit: BooksKit,
  who: UserWithSession,
  productId: string,
  grossCents: number,
  options: { mode?: 'deposit'; checkId?: string } = {},
) {
  return kit.harness.app.inject({
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

export async function pay(kit: BooksKit, clientSecret: string) {
  const confirmed = await confirmCardLikeTheBrowser(kit.harness.standinUrl, clientSecret, VISA);
  expect(confirmed.status).toBe(200);
  return kit.harness.webhookDelivered('payment_intent.succeeded', intentIdOf(clientSecret));
}

/** The order's invoices and credit notes, oldest first. */
export const documents = (kit: BooksKit, orderId: string) =>
  kit.harness.app.db
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
