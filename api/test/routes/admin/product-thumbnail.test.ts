import { describe, expect } from 'vitest';

import { createUserWithSession } from '../../helpers/users.js';
import { it } from '../../support/fixtures.js';

// thumbnailUrl is public: every shopper's browser gets it from GET /api/products. An address with
// a user name and password in it (copied from a CDN console) would publish those credentials, and
// browsers refuse to load pictures from such addresses anyway.
describe('admin product thumbnail addresses', () => {
  const input = (thumbnailUrl: string) => ({
    name: 'Hallberg-Rassy 40C',
    thumbnailUrl,
    priceCents: 42_500_000,
    descriptionHtml: '<p>A cruiser.</p>',
    category: 'sailing-boats',
  });

  it.for([
    'https://admin:hunter2@cdn.example.test/boat.jpg',
    'https://token@cdn.example.test/boat.jpg',
    'http://:secret@cdn.example.test/boat.jpg',
  ])('refuses %s with 400 and publishes nothing', async (thumbnailUrl, { app }) => {
    const admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const response = await app.inject({ method: 'POST', url: '/api/admin/products', headers: admin.headers, payload: input(thumbnailUrl) });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Image URL must not contain a user name or password' } });
    const list = await app.inject({ url: '/api/products' });
    expect(list.body).not.toContain('hunter2');
    expect(list.json().data).toHaveLength(0);
  });

  it('still takes a plain web address and a shipped picture', async ({ app, admin }) => {
    for (const thumbnailUrl of ['https://cdn.example.test/boat.jpg?w=800#x', '/api/images/aurora-bay-40.svg']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/admin/products',
        headers: admin.headers,
        payload: input(thumbnailUrl),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  });
});
