import type { Favourite } from '@boatshop/contract';
import { describe, expect } from 'vitest';
import { collectPersonalData, eraseAccount } from '../../../src/features/privacy/personal-data.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// Favourites: idempotent PUT and DELETE, the owner's only.

const test = testWithApp();

const URL = '/api/account/favourites';

async function list(app: TestApp, headers: Record<string, string>): Promise<Favourite[]> {
  const response = await app.inject({ method: 'GET', url: URL, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().favourites;
}

describe('/api/account/favourites', () => {
  test('keeps a boat once however often it is put, and forgets it however often it is deleted', async ({ app, shopper }) => {
    const boat = await insertProduct(app, { name: 'Hallberg-Rassy 40' });
    const other = await insertProduct(app, { name: 'Swan 48' });
    for (let i = 0; i < 2; i += 1) {
      const put = await app.inject({ method: 'PUT', url: `${URL}/${boat.id}`, headers: shopper.headers });
      expect(put.statusCode, put.body).toBe(204);
    }
    await app.inject({ method: 'PUT', url: `${URL}/${other.id}`, headers: shopper.headers });
    expect((await list(app, shopper.headers)).map((favourite) => favourite.product.name)).toEqual(['Swan 48', 'Hallberg-Rassy 40']);
    const ids = await app.inject({ method: 'GET', url: `${URL}/ids`, headers: shopper.headers });
    expect(ids.json().productIds).toEqual([other.id, boat.id]);

    for (let i = 0; i < 2; i += 1) {
      const removed = await app.inject({ method: 'DELETE', url: `${URL}/${boat.id}`, headers: shopper.headers });
      expect(removed.statusCode).toBe(204);
    }
    expect((await list(app, shopper.headers)).map((favourite) => favourite.product.id)).toEqual([other.id]);
  });

  test('two puts of one boat at once leave one favourite', async ({ app, shopper }) => {
    const boat = await insertProduct(app);
    const answers = await Promise.all(
      [1, 2, 3].map(() => app.inject({ method: 'PUT', url: `${URL}/${boat.id}`, headers: shopper.headers })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([204, 204, 204]);
    expect(await list(app, shopper.headers)).toHaveLength(1);
  });

  test("another shopper's favourites are not visible, and a guest is asked to sign in", async ({ app, shopper }) => {
    const boat = await insertProduct(app);
    await app.inject({ method: 'PUT', url: `${URL}/${boat.id}`, headers: shopper.headers });
    const other = await createUserWithSession(app);
    expect(await list(app, other.headers)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `${URL}/ids`, headers: other.headers })).json().productIds).toEqual([]);
    // Deleting "the same" boat from another account removes nothing of the first shopper's.
    await app.inject({ method: 'DELETE', url: `${URL}/${boat.id}`, headers: other.headers });
    expect(await list(app, shopper.headers)).toHaveLength(1);
    expect((await app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await app.inject({ method: 'PUT', url: `${URL}/${boat.id}` })).statusCode).toBe(403);
  });

  test('an unknown or malformed boat is a 404, never a 500', async ({ app, shopper }) => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await app.inject({ method: 'PUT', url: `${URL}/${id}`, headers: shopper.headers });
      expect(response.statusCode, response.body).toBe(404);
    }
  });

  test('a deleted boat leaves the list; the export lists favourites and erasure deletes them', async ({ app, shopper }) => {
    const kept = await insertProduct(app, { name: 'Najad 355' });
    const gone = await insertProduct(app);
    for (const boat of [kept, gone]) await app.inject({ method: 'PUT', url: `${URL}/${boat.id}`, headers: shopper.headers });
    await app.db.deleteFrom('products').where('id', '=', gone.id).execute();
    expect((await list(app, shopper.headers)).map((favourite) => favourite.product.id)).toEqual([kept.id]);

    const archive = await collectPersonalData(app.db, shopper.user.id);
    expect(archive.favourites).toMatchObject([{ boat: 'Najad 355', product_id: kept.id }]);
    await app.db.transaction().execute((trx) => eraseAccount(trx, shopper.user.id));
    expect(await app.db.selectFrom('favourites').selectAll().where('user_id', '=', shopper.user.id).execute()).toEqual([]);
  });
});
