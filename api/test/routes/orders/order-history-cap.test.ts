import { describe, expect } from 'vitest';
import { ORDER_HISTORY_LIMIT } from '../../../src/features/orders/orders.repository.js';
import { it } from '../../support/fixtures.js';

const address = JSON.stringify({
  name: 'Sandy Shopper',
  address: { line1: '1 Quay Street', city: 'Cowes', state: 'Isle of Wight', postal_code: 'PO31 7AA', country: 'GB' },
});

// GET /api/orders had no bound: an account with tens of thousands of orders (a reseller, a bot,
// a test account in production) made one request read and serialise them all. The dashboard shows
// the newest ORDER_HISTORY_LIMIT, which is every order of any real shopper.
describe('GET /api/orders is bounded', () => {
  it('answers the newest ORDER_HISTORY_LIMIT paid orders, newest first', async ({ app, shopper }) => {
    const start = Date.UTC(2026, 0, 1);
    const count = ORDER_HISTORY_LIMIT + 5;
    await app.db
      .insertInto('orders')
      .values(
        Array.from({ length: count }, (_, i) => ({
          user_id: shopper.user.id,
          status: 'paid' as const,
          total_cents: 100 + i,
          shipping: address,
          billing: address,
          created_at: new Date(start + i * 60_000),
          paid_at: new Date(start + i * 60_000),
        })),
      )
      .execute();

    const response = await app.inject({ method: 'GET', url: '/api/orders', headers: shopper.headers });
    expect(response.statusCode).toBe(200);
    const data = response.json().data as { amountCents?: number; totalCents?: number; createdAt?: string; orderDate?: string }[];
    expect(data).toHaveLength(ORDER_HISTORY_LIMIT);
    const first = data[0] as Record<string, unknown>;
    const last = data[data.length - 1] as Record<string, unknown>;
    // newest first: the newest order (total 100 + count - 1) leads, the five oldest are left out
    expect(Object.values(first)).toContain(100 + count - 1);
    expect(Object.values(last)).toContain(100 + 5);
  });

  it('keeps a normal history whole', async () => {
    expect(ORDER_HISTORY_LIMIT).toBeGreaterThanOrEqual(100);
  });
});
