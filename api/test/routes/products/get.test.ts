import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { insertProduct } from '../../helpers/products.js';

describe('GET /api/products/:id', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  beforeEach(() => resetDatabase(app));
  afterAll(() => app?.close());

  it('returns the product', async () => {
    const row = await insertProduct(app, { name: 'Orcadia 50', price_cents: 89_500_000 });
    const response = await app.inject({ url: `/api/products/${row.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: row.id, name: 'Orcadia 50', priceCents: 89_500_000 });
  });

  it.each([
    ['an unknown id', '6f1c1f39-3c1a-4c52-9a55-0b0a4a0f9c11'],
    ['a malformed id', 'not-a-uuid'],
  ])('answers 404 Product not found for %s', async (_label, id) => {
    const response = await app.inject({ url: `/api/products/${id}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
  });
});

describe('GET /api/products/by-ids', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  beforeEach(() => resetDatabase(app));
  afterAll(() => app?.close());

  it('returns the known products in the order asked, leaving out unknown ids', async () => {
    const first = await insertProduct(app, { name: 'First' });
    const second = await insertProduct(app, { name: 'Second' });
    const unknown = '6f1c1f39-3c1a-4c52-9a55-0b0a4a0f9c11';
    const response = await app.inject({ url: '/api/products/by-ids', query: { ids: `${second.id},${unknown},${first.id}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((p: { name: string }) => p.name)).toEqual(['Second', 'First']);
  });

  it('rejects malformed ids and more than 100 ids', async () => {
    const malformed = await app.inject({ url: '/api/products/by-ids', query: { ids: 'abc,6f1c1f39-3c1a-4c52-9a55-0b0a4a0f9c11' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toEqual({
      code: 'VALIDATION',
      message: 'ids: every id must be a product id (uuid)',
      details: ['abc'],
    });
    const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',');
    const tooMany = await app.inject({ url: '/api/products/by-ids', query: { ids } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe('ids: at most 100 product ids at a time');
  });

  it('requires ids', async () => {
    const response = await app.inject({ url: '/api/products/by-ids' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Invalid request: querystring.ids is required');
  });
});
