import { describe, expect } from 'vitest';

import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';
import { it } from '../../support/fixtures.js';

// PostgreSQL refuses a NUL character in any text value ("invalid byte sequence for encoding
// UTF8: 0x00"); a query string or form field carrying one must be a 400, not a database error.
describe('NUL characters in catalogue input', () => {
  it('GET /api/products?q= with a NUL answers 400 with the error body', async ({ app }) => {
    await insertProduct(app, { name: 'Contessa 32' });
    for (const q of ['\u0000', 'boat\u0000', '\u0000\u0000 yacht']) {
      const response = await app.inject({ method: 'GET', url: '/api/products', query: { q } });
      expect(response.statusCode, q).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION' } });
    }
    // The search itself still works.
    const ok = await app.inject({ method: 'GET', url: '/api/products', query: { q: 'contessa' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toHaveLength(1);
  });

  it.for<[string, Record<string, string>]>([
    ['name', { name: 'Hallberg\u0000Rassy' }],
    ['descriptionHtml', { descriptionHtml: '<p>fast\u0000</p>' }],
    ['thumbnailUrl', { thumbnailUrl: 'https://images.example.test/a\u0000.jpg' }],
  ])('an admin product with a NUL in %s answers 400 and stores nothing', async ([_field, overrides], { app }) => {
    const admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const payload = {
      name: 'Hallberg-Rassy 40C',
      thumbnailUrl: 'https://images.example.test/hr40.jpg',
      priceCents: 42_500_000,
      descriptionHtml: '<p>A cruiser.</p>',
      category: 'sailing-boats',
      ...overrides,
    };
    const response = await app.inject({ method: 'POST', url: '/api/admin/products', headers: admin.headers, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION' } });
    const list = await app.inject({ method: 'GET', url: '/api/admin/products', headers: admin.headers });
    expect(list.json().data).toHaveLength(0);
  });
});
