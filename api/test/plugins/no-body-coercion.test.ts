import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

const URL = '/api/admin/products';

function productInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Hallberg-Rassy 40C',
    thumbnailUrl: 'https://images.example.test/hr40.jpg',
    priceCents: 42_500_000,
    descriptionHtml: '<p>A cruiser.</p>',
    category: 'sailing-boats',
    ...overrides,
  };
}

// JSON bodies carry real types: a boolean, a string or an array where a number is due is a client
// bug (or an attack on a price), refused with 400, never stored as 1, 100 or "".
describe('JSON bodies are validated without type coercion', () => {
  it.for<[string, Record<string, unknown>]>([
    ['priceCents true', { priceCents: true }],
    ['priceCents "100"', { priceCents: '100' }],
    ['priceCents [100]', { priceCents: [100] }],
    ['descriptionHtml null', { descriptionHtml: null }],
    ['name 42', { name: 42 }],
  ])('%s answers 400 VALIDATION and stores nothing', async ([, overrides], { app, admin }) => {
    const response = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput(overrides) });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION');
    expect(await app.db.selectFrom('products').select('id').execute()).toEqual([]);
  });

  it('querystrings are still coerced: ?limit=2 is a number', async ({ app }) => {
    const response = await app.inject({ method: 'GET', url: '/api/products?limit=2' });
    expect(response.statusCode, response.body).toBe(200);
  });
});
