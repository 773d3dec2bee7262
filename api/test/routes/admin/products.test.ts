import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PRICE_CENTS } from '@boatshop/contract';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { cookieHeader, createUserWithSession, csrfCredentials } from '../../helpers/users.js';

const URL = '/api/admin/products';

function productInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Hallberg-Rassy 40C',
    thumbnailUrl: 'https://images.example.test/hr40.jpg',
    priceCents: 42_500_000,
    descriptionHtml: '<p>A <strong>blue-water</strong> cruiser.</p>',
    category: 'sailing-boats',
    ...overrides,
  };
}

describe('admin product routes', () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof createUserWithSession>>;

  beforeAll(async () => {
    app = await buildTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(app);
    admin = await createUserWithSession(app, { roles: ['user', 'owner'], displayName: 'Ada Admin' });
  });
  afterAll(() => app?.close());

  async function createProduct(overrides: Record<string, unknown> = {}) {
    const response = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput(overrides) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; name: string; priceCents: number; descriptionHtml: string; createdAt: string };
  }

  /** A visitor with no session but valid CSRF credentials, so only the role check can refuse them. */
  async function anonymousHeaders() {
    const csrf = await csrfCredentials(app);
    const cookie = cookieHeader(csrf.cookies);
    return { ...(cookie ? { cookie } : {}), ...csrf.headers };
  }

  describe('who may call them', () => {
    const routes = [
      { method: 'GET', path: () => URL },
      { method: 'POST', path: () => URL },
      { method: 'PUT', path: (id: string) => `${URL}/${id}` },
      { method: 'DELETE', path: (id: string) => `${URL}/${id}` },
    ] as const;

    it.each(routes)('$method answers 401 without a session and changes nothing', async ({ method, path }) => {
      const product = await createProduct();
      const response = await app.inject({
        method,
        url: path(product.id),
        headers: await anonymousHeaders(),
        ...(method === 'POST' || method === 'PUT' ? { payload: productInput({ name: 'Stolen yacht', priceCents: 1 }) } : {}),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
      const rows = await app.db.selectFrom('products').select(['id', 'name', 'price_cents']).execute();
      expect(rows).toEqual([{ id: product.id, name: product.name, price_cents: product.priceCents }]);
    });

    it.each(routes)('$method answers 403 to a signed-in shopper and changes nothing', async ({ method, path }) => {
      const product = await createProduct();
      const shopper = await createUserWithSession(app, { roles: ['user'] });
      const response = await app.inject({
        method,
        url: path(product.id),
        headers: shopper.headers,
        ...(method === 'POST' || method === 'PUT' ? { payload: productInput({ name: 'Stolen yacht', priceCents: 1 }) } : {}),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
      const rows = await app.db.selectFrom('products').select(['id', 'name', 'price_cents']).execute();
      expect(rows).toEqual([{ id: product.id, name: product.name, price_cents: product.priceCents }]);
    });

    it('refuses a stranger before looking at the body, so no validation details leak', async () => {
      const response = await app.inject({ method: 'POST', url: URL, headers: await anonymousHeaders(), payload: { name: 1 } });
      expect(response.statusCode).toBe(401);
    });

    it('checks the admin role on every request, so a revoked admin is refused at once', async () => {
      await app.db
        .updateTable('users')
        .set({ roles: ['user'] })
        .where('id', '=', admin.user.id)
        .execute();
      const response = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput() });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('GET /api/admin/products', () => {
    it('lists products of both categories newest first, a page at a time', async () => {
      const names = ['First sloop', 'Second yacht', 'Third ketch'];
      for (const [index, name] of names.entries()) {
        await createProduct({ name, category: index === 1 ? 'yachts' : 'sailing-boats' });
      }
      const first = await app.inject({ url: `${URL}?limit=2`, headers: admin.headers });
      expect(first.statusCode).toBe(200);
      const page = first.json();
      expect(page.data.map((product: { name: string }) => product.name)).toEqual(['Third ketch', 'Second yacht']);
      expect(page.isLastPage).toBe(false);

      const second = await app.inject({ url: `${URL}?limit=2&cursor=${page.cursor}`, headers: admin.headers });
      expect(second.json()).toMatchObject({ data: [{ name: 'First sloop' }], cursor: null, isLastPage: true });
    });
  });

  describe('POST /api/admin/products', () => {
    it('adds a product, trimmed, that the shop shows at once, and records the creating admin', async () => {
      const created = await createProduct({ name: '  Oyster 565  ', category: 'yachts' });
      expect(created).toMatchObject({ name: 'Oyster 565', category: 'yachts', priceCents: 42_500_000 });

      const row = await app.db.selectFrom('products').select(['created_by']).where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.created_by).toBe(admin.user.id);

      const shop = await app.inject({ url: `/api/products/${created.id}` });
      expect(shop.statusCode).toBe(200);
      // The shop's read adds the pictures: the typed address is the first.
      expect(shop.json()).toEqual({
        ...created,
        pictures: [expect.objectContaining({ src: shop.json().thumbnailUrl, alt: 'Oyster 565' })],
      });
    });

    it('accepts the highest allowed price and the shop’s own pictures', async () => {
      const created = await createProduct({ priceCents: MAX_PRICE_CENTS, thumbnailUrl: '/api/images/yacht-1.svg' });
      expect(created).toMatchObject({ priceCents: MAX_PRICE_CENTS, thumbnailUrl: '/api/images/yacht-1.svg' });
    });

    it.each([
      [{ name: '  ab  ' }, 'Name must be 3 to 120 characters long'],
      [{ name: 'x'.repeat(121) }, 'Name must be 3 to 120 characters long'],
      [{ priceCents: 0 }, 'Price must be more than 0,00 €'],
      [{ priceCents: -500 }, 'Price must be more than 0,00 €'],
      [{ priceCents: MAX_PRICE_CENTS + 1 }, 'Price must be at most 100.000.000,00 €'],
      [{ thumbnailUrl: 'javascript:alert(1)' }, 'Image URL must be a web address starting with http:// or https://'],
      [{ thumbnailUrl: 'ftp://files.example.test/boat.jpg' }, 'Image URL must be a web address starting with http:// or https://'],
      [{ thumbnailUrl: 'data:image/png;base64,AAAA' }, 'Image URL must be a web address starting with http:// or https://'],
      [{ thumbnailUrl: '/api/images/../secrets' }, 'Image URL must be a web address starting with http:// or https://'],
      [{ thumbnailUrl: 'boat.jpg' }, 'Image URL must be a web address starting with http:// or https://'],
    ])('rejects %o with "%s"', async (overrides, message) => {
      const response = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput(overrides) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'VALIDATION', message, details: [message] } });
      expect(await app.db.selectFrom('products').select('id').execute()).toEqual([]);
    });

    it('rejects a category other than the two', async () => {
      const response = await app.inject({
        method: 'POST',
        url: URL,
        headers: admin.headers,
        payload: productInput({ category: 'dinghies' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toEqual(['body.category must be one of: sailing-boats, yachts']);
    });

    it('rejects a price that is not a whole number of cents', async () => {
      const response = await app.inject({
        method: 'POST',
        url: URL,
        headers: admin.headers,
        payload: productInput({ priceCents: 1999.5 }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toEqual(['body.priceCents must be integer']);
    });

    it('lists every problem at once', async () => {
      const response = await app.inject({
        method: 'POST',
        url: URL,
        headers: admin.headers,
        payload: productInput({ name: 'ab', priceCents: 0, thumbnailUrl: 'nope' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'VALIDATION',
        message: 'Please correct the product',
        details: [
          'Name must be 3 to 120 characters long',
          'Image URL must be a web address starting with http:// or https://',
          'Price must be more than 0,00 €',
        ],
      });
    });

    it('removes scripts, event handlers, styles, frames and javascript: links before storing', async () => {
      const hostile = [
        '<h1 style="color:red">Sea trial</h1>',
        '<img src=x onerror=alert(1)>',
        '<script>window.__xss = 1</script>',
        '<p onclick="alert(1)">Fast <b>and</b> <em>dry</em></p>',
        '<a href="javascript:alert(1)">click me</a>',
        '<a href="https://example.test/specs" onmouseover="alert(1)">specs</a>',
        '<iframe src="https://evil.example.test"></iframe>',
        '<style>body { display: none }</style>',
        '<ul><li>Radar</li><li>Autopilot</li></ul>',
      ].join('');
      const created = await createProduct({ descriptionHtml: hostile });
      const expected =
        '<h2>Sea trial</h2><p>Fast <strong>and</strong> <em>dry</em></p>click me' +
        '<a href="https://example.test/specs" rel="noopener noreferrer">specs</a>' +
        '<ul><li>Radar</li><li>Autopilot</li></ul>';
      expect(created.descriptionHtml).toBe(expected);
      const row = await app.db.selectFrom('products').select('description_html').where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.description_html).toBe(expected);
    });
  });

  describe('PUT /api/admin/products/:id', () => {
    it('replaces the product but keeps its creator and creation date', async () => {
      const created = await createProduct();
      const otherAdmin = await createUserWithSession(app, { roles: ['user', 'owner'] });
      const response = await app.inject({
        method: 'PUT',
        url: `${URL}/${created.id}`,
        headers: otherAdmin.headers,
        payload: productInput({ name: 'Hallberg-Rassy 40C Mk II', priceCents: 39_900_050, descriptionHtml: '<p onclick="x()">Refit</p>' }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        ...created,
        name: 'Hallberg-Rassy 40C Mk II',
        priceCents: 39_900_050,
        descriptionHtml: '<p>Refit</p>',
      });
      const row = await app.db.selectFrom('products').select('created_by').where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.created_by).toBe(admin.user.id);
      expect((await app.inject({ url: `/api/products/${created.id}` })).json().priceCents).toBe(39_900_050);
    });

    it('validates like POST', async () => {
      const created = await createProduct();
      const response = await app.inject({
        method: 'PUT',
        url: `${URL}/${created.id}`,
        headers: admin.headers,
        payload: productInput({ priceCents: 0 }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe('Price must be more than 0,00 €');
      expect((await app.inject({ url: `/api/products/${created.id}` })).json().priceCents).toBe(created.priceCents);
    });

    it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])('answers 404 for the unknown id %s', async (id) => {
      const response = await app.inject({ method: 'PUT', url: `${URL}/${id}`, headers: admin.headers, payload: productInput() });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
    });
  });

  describe('stock', () => {
    it('stores a whole number of units, and none (null) as built to order', async () => {
      const used = await createProduct({ stock: 1 });
      const model = await createProduct({ stock: null });
      const unsaid = await createProduct();
      expect([used, model, unsaid].map((p) => p as unknown as { stock: unknown; availability: string })).toMatchObject([
        { stock: 1, availability: 'in_stock' },
        { stock: null, availability: 'in_stock' },
        { stock: null, availability: 'in_stock' },
      ]);
      const zero = await createProduct({ stock: 0 });
      expect(zero).toMatchObject({ stock: 0, availability: 'sold_out' });
    });

    it('refuses a negative, fractional, too large or textual stock with a message a person can act on', async () => {
      for (const stock of [-1, 100_001]) {
        const response = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput({ stock }) });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({
          code: 'VALIDATION',
          message: 'Stock must be a whole number from 0 to 100000, or empty for built to order',
        });
      }
      for (const stock of [1.5, 'two']) {
        const response = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput({ stock }) });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.details).toEqual(['body.stock must be integer,null']);
      }
      expect(await app.db.selectFrom('products').select('id').execute()).toEqual([]);
    });

    it('on PUT, counts the given stock as units free to buy: units held by open orders come on top; left out, it stays', async () => {
      const product = await createProduct({ stock: 3 });
      await app.db.updateTable('products').set({ stock_reserved: 2 }).where('id', '=', product.id).execute();
      const stockOf = () =>
        app.db.selectFrom('products').select(['stock_on_hand', 'stock_reserved']).where('id', '=', product.id).executeTakeFirstOrThrow();

      const put = (overrides: Record<string, unknown>) =>
        app.inject({ method: 'PUT', url: `${URL}/${product.id}`, headers: admin.headers, payload: productInput(overrides) });
      expect((await put({ stock: 1 })).json()).toMatchObject({ stock: 1, availability: 'in_stock' });
      expect(await stockOf()).toEqual({ stock_on_hand: 3, stock_reserved: 2 });

      expect((await put({ name: 'Renamed boat' })).json()).toMatchObject({ name: 'Renamed boat', stock: 1 });
      expect((await put({ stock: 0 })).json()).toMatchObject({ stock: 0, availability: 'reserved' });
      expect((await put({ stock: null })).json()).toMatchObject({ stock: null, availability: 'in_stock' });
      expect(await stockOf()).toEqual({ stock_on_hand: null, stock_reserved: 2 });
    });
  });

  describe('DELETE /api/admin/products/:id', () => {
    it('removes the product from the shop for real', async () => {
      const created = await createProduct();
      const response = await app.inject({ method: 'DELETE', url: `${URL}/${created.id}`, headers: admin.headers });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await app.inject({ url: `/api/products/${created.id}` })).statusCode).toBe(404);
      expect(await app.db.selectFrom('products').select('id').execute()).toEqual([]);
    });

    it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])('answers 404 for the unknown id %s', async (id) => {
      const response = await app.inject({ method: 'DELETE', url: `${URL}/${id}`, headers: admin.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
    });
  });

  describe('orders placed before a change', () => {
    it('keep the item snapshot when the product is edited and then deleted', async () => {
      const product = await createProduct({
        name: 'Contessa 32',
        priceCents: 4_500_000,
        thumbnailUrl: 'https://images.example.test/c32.jpg',
      });
      const buyer = await createUserWithSession(app);
      const address = {
        name: 'Sandy Shopper',
        address: { line1: '1 Quay', city: 'Cowes', state: 'IOW', postal_code: 'PO31', country: 'GB' },
      };
      const order = await app.db
        .insertInto('orders')
        .values({
          user_id: buyer.user.id,
          status: 'paid',
          total_cents: 9_000_000,
          shipping: JSON.stringify(address),
          billing: JSON.stringify(address),
          payment_reference: null,
          paid_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await app.db
        .insertInto('order_items')
        .values({
          order_id: order.id,
          product_id: product.id,
          name: 'Contessa 32',
          thumbnail_url: 'https://images.example.test/c32.jpg',
          unit_price_cents: 4_500_000,
          quantity: 2,
        })
        .execute();
      const snapshot = { name: 'Contessa 32', thumbnailUrl: 'https://images.example.test/c32.jpg', unitPriceCents: 4_500_000, quantity: 2 };

      const edit = await app.inject({
        method: 'PUT',
        url: `${URL}/${product.id}`,
        headers: admin.headers,
        payload: productInput({
          name: 'Contessa 32 (refitted)',
          priceCents: 5_200_000,
          thumbnailUrl: 'https://images.example.test/c32-new.jpg',
        }),
      });
      expect(edit.statusCode).toBe(200);
      const afterEdit = await app.inject({ url: `/api/orders/${order.id}`, headers: buyer.headers });
      expect(afterEdit.json().items).toEqual([{ productId: product.id, ...snapshot }]);

      const removal = await app.inject({ method: 'DELETE', url: `${URL}/${product.id}`, headers: admin.headers });
      expect(removal.statusCode).toBe(204);
      const afterDelete = await app.inject({ url: `/api/orders/${order.id}`, headers: buyer.headers });
      expect(afterDelete.statusCode).toBe(200);
      expect(afterDelete.json()).toMatchObject({ totalCents: 9_000_000, items: [{ productId: null, ...snapshot }] });
    });
  });
});
