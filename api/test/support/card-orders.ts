// What the ledger and order tests do before each case: a fresh shop with staff and a shopper, an
// order opened through POST /api/payments/create, and a card payment confirmed as the browser does
// it, with its webhook delivered.
import { expect } from 'vitest';
import { resetDatabase } from '../helpers/build-test-app.js';
import { createUserWithSession, type UserWithSession } from '../helpers/users.js';
import { confirmCardLikeTheBrowser, createBody, intentIdOf, type PaymentsHarness } from '../routes/payments/payments-test-kit.js';

/** Stripe's test cards the stand-in knows. */
export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  /** its refunds stay pending until the stand-in's dashboard settles them */
  refundPending: '4000000000007726',
} as const;

/** An emptied database with webhooks reaching the API, a staff member with `staffRoles`, and a shopper. */
export async function freshShop(
  harness: PaymentsHarness,
  staff: { roles: string[]; displayName?: string } = { roles: ['user', 'admin'] },
): Promise<{ admin: UserWithSession; shopper: UserWithSession }> {
  harness.setWebhooksReachable(true);
  await resetDatabase(harness.app);
  const admin = await createUserWithSession(harness.app, staff);
  const shopper = await createUserWithSession(harness.app);
  return { admin, shopper };
}

/** POST /api/payments/create for one unit of a product, as `who` (mode deposit: a reservation). */
export function createOrder(harness: PaymentsHarness, who: UserWithSession, productId: string, totalCents: number, mode?: 'deposit') {
  return harness.app.inject({
    method: 'POST',
    url: '/api/payments/create',
    headers: who.headers,
    payload: { ...createBody([{ productId, quantity: 1 }], totalCents), ...(mode ? { mode } : {}) },
  });
}

/** An order opened (201, checked) and its payment intent. */
export async function openOrder(harness: PaymentsHarness, who: UserWithSession, productId: string, totalCents: number, mode?: 'deposit') {
  const response = await createOrder(harness, who, productId, totalCents, mode);
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ orderId: string; clientSecret: string }>();
  return { ...body, intentId: intentIdOf(body.clientSecret) };
}

/** The order paid by card as the browser pays it, and the provider's webhook delivered. */
export async function payByCard(harness: PaymentsHarness, order: { clientSecret: string; intentId: string }, card: string = CARDS.visa) {
  await confirmCardLikeTheBrowser(harness.standinUrl, order.clientSecret, card);
  await harness.webhookDelivered('payment_intent.succeeded', order.intentId);
}
