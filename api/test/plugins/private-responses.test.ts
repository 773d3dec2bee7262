import { describe, expect } from 'vitest';

import { insertProduct } from '../helpers/products.js';
import { it } from '../support/fixtures.js';

// A shopper's orders or an admin's view must never be kept by a shared cache (a CDN, a company
// proxy) nor by the browser's disk cache after sign-out: without a Cache-Control of their own,
// such answers may be stored and shown to the next person.
describe('Cache-Control of personal answers', () => {
  it("marks a signed-in shopper's orders private and not to be stored", async ({ app, shopper }) => {
    const list = await app.inject({ url: '/api/orders', headers: shopper.headers });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');

    const missing = await app.inject({ url: '/api/orders/00000000-0000-4000-8000-000000000000', headers: shopper.headers });
    expect(missing.headers['cache-control']).toBe('private, no-store');
  });

  it("marks an admin's product list private and not to be stored", async ({ app, admin }) => {
    const response = await app.inject({ url: '/api/admin/products', headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('marks any answer that sets a cookie as not to be stored', async ({ app }) => {
    const response = await app.inject({ url: '/api/auth/session' });
    expect(response.headers['set-cookie']).toBeDefined();
    expect(response.headers['cache-control']).toContain('no-store');
  });

  it("leaves the public catalogue's and the pictures' caching as the routes set it", async ({ app }) => {
    const product = await insertProduct(app, { name: 'Contessa 32' });
    const list = await app.inject({ url: '/api/products' });
    const one = await app.inject({ url: `/api/products/${product.id}` });
    expect(list.headers['cache-control']).toBeUndefined();
    expect(one.headers['cache-control']).toBeUndefined();
    const picture = await app.inject({ url: '/api/images/aurora-bay-40.svg' });
    expect(picture.headers['cache-control']).toBe('public, max-age=2592000');
  });

  it('keeps the pictures cacheable for a signed-in shopper too', async ({ app, shopper }) => {
    const picture = await app.inject({ url: '/api/images/aurora-bay-40.svg', headers: shopper.headers });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cache-control']).toBe('public, max-age=2592000');
  });
});
