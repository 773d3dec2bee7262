import { describe, expect } from 'vitest';
import type { OrderStatus } from '@boatshop/contract';
import type { NamedAddressJson } from '../../../src/features/orders/orders.table.js';
import { type TestApp } from '../../helpers/build-test-app.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';
import { it } from '../../support/fixtures.js';

const address = (name: string): NamedAddressJson => ({
  name,
  address: { line1: '1 Quay Street', city: 'Cowes', state: 'Isle of Wight', postal_code: 'PO31 7AA', country: 'GB' },
});

async function insertOrder(
  app: TestApp,
  userId: string,
  options: {
    status?: OrderStatus;
    createdAt?: Date;
    items?: { productId: string | null; name: string; unitPriceCents: number; quantity: number }[];
  } = {},
) {
  const items = options.items ?? [];
  const order = await app.db
    .insertInto('orders')
    .values({
      user_id: userId,
      status: options.status ?? 'paid',
      total_cents: items.reduce((sum, item) => sum + item.unitPriceCents * item.quantity, 0),
      shipping: JSON.stringify(address('Sandy Shopper')),
      billing: JSON.stringify(address('S. Shopper')),
      created_at: options.createdAt ?? new Date(),
      paid_at: (options.status ?? 'paid') === 'paid' ? new Date() : null,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  if (items.length > 0) {
    await app.db
      .insertInto('order_items')
      .values(
        items.map((item) => ({
          order_id: order.id,
          product_id: item.productId,
          name: item.name,
          thumbnail_url: '/api/images/test.svg',
          unit_price_cents: item.unitPriceCents,
          quantity: item.quantity,
        })),
      )
      .execute();
  }
  return order;
}

describe('orders', () => {
  describe('GET /api/orders', () => {
    it("lists only the caller's paid orders, newest first", async ({ app }) => {
      const me = await createUserWithSession(app);
      const someoneElse = await createUserWithSession(app);
      const older = await insertOrder(app, me.user.id, { createdAt: new Date('2024-01-01T10:00:00Z') });
      const newer = await insertOrder(app, me.user.id, { createdAt: new Date('2024-02-01T10:00:00Z') });
      await insertOrder(app, me.user.id, { status: 'pending' });
      await insertOrder(app, me.user.id, { status: 'failed' });
      await insertOrder(app, someoneElse.user.id);

      const response = await app.inject({ url: '/api/orders', headers: me.headers });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual([
        { id: newer.id, createdAt: '2024-02-01T10:00:00.000Z', totalCents: 0, status: 'paid' },
        { id: older.id, createdAt: '2024-01-01T10:00:00.000Z', totalCents: 0, status: 'paid' },
      ]);
    });

    it('answers 401 without a session', async ({ app }) => {
      const response = await app.inject({ url: '/api/orders' });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('GET /api/orders/:id', () => {
    it('returns the order with its item snapshots, which survive the product being deleted', async ({ app }) => {
      const me = await createUserWithSession(app);
      const product = await insertProduct(app, { name: 'Aldren 22 Daysailer', price_cents: 2_190_000 });
      const order = await insertOrder(app, me.user.id, {
        items: [
          { productId: product.id, name: 'Aldren 22 Daysailer', unitPriceCents: 2_190_000, quantity: 2 },
          { productId: null, name: 'Boat cover', unitPriceCents: 45_050, quantity: 1 },
        ],
      });
      await app.db.deleteFrom('products').where('id', '=', product.id).execute();

      const response = await app.inject({ url: `/api/orders/${order.id}`, headers: me.headers });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        id: order.id,
        status: 'paid',
        totalCents: 4_425_050,
        paidAt: expect.any(String),
        shipping: address('Sandy Shopper'),
        billing: address('S. Shopper'),
      });
      expect(body.items).toEqual([
        { productId: null, name: 'Aldren 22 Daysailer', thumbnailUrl: '/api/images/test.svg', unitPriceCents: 2_190_000, quantity: 2 },
        { productId: null, name: 'Boat cover', thumbnailUrl: '/api/images/test.svg', unitPriceCents: 45_050, quantity: 1 },
      ]);
    });

    it('shows the owner a pending order, so a checkout can follow it to paid', async ({ app }) => {
      const me = await createUserWithSession(app);
      const order = await insertOrder(app, me.user.id, { status: 'pending' });
      const response = await app.inject({ url: `/api/orders/${order.id}`, headers: me.headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'pending', paidAt: null });
    });

    it.for([
      ["another user's order", 'other'],
      ['an unknown id', '6f1c1f39-3c1a-4c52-9a55-0b0a4a0f9c11'],
      ['a malformed id', 'nope'],
    ])('answers 404 Order not found for %s', async ([_label, which], { app }) => {
      const me = await createUserWithSession(app);
      const owner = await createUserWithSession(app);
      const theirs = await insertOrder(app, owner.user.id);
      const id = which === 'other' ? theirs.id : which;
      const response = await app.inject({ url: `/api/orders/${id}`, headers: me.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Order not found' } });
    });

    it('answers 401 without a session', async ({ app }) => {
      const owner = await createUserWithSession(app);
      const order = await insertOrder(app, owner.user.id);
      expect((await app.inject({ url: `/api/orders/${order.id}` })).statusCode).toBe(401);
    });
  });
});
