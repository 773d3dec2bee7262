import type { SavedAddress } from '@boatshop/contract';
import { describe, expect } from 'vitest';
import { collectPersonalData, eraseAccount } from '../../../src/features/privacy/personal-data.js';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// A shopper's address book: their own only, checked input, one default of each kind.

const test = testWithApp();

type Headers = Record<string, string>;

const URL = '/api/account/addresses';

const body = (kind: 'shipping' | 'billing', line1: string, extra: Record<string, unknown> = {}) => ({
  kind,
  name: 'Ada Lovelace',
  address: { line1, city: 'Cork', state: 'Cork', postal_code: 'T12 X123', country: 'IE' },
  ...extra,
});

async function save(app: TestApp, headers: Headers, payload: object): Promise<SavedAddress> {
  const response = await app.inject({ method: 'POST', url: URL, headers, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function list(app: TestApp, headers: Headers): Promise<SavedAddress[]> {
  const response = await app.inject({ method: 'GET', url: URL, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().addresses;
}

const defaults = (addresses: SavedAddress[], kind: string) => addresses.filter((a) => a.kind === kind && a.isDefault).map((a) => a.id);

describe('the address book', () => {
  test('saves, lists, changes and deletes; the first of a kind is its default', async ({ app, shopper }) => {
    const home = await save(app, shopper.headers, body('shipping', '  1 Quay Street  '));
    expect(home).toMatchObject({ kind: 'shipping', isDefault: true, address: { line1: '1 Quay Street' } });
    const office = await save(app, shopper.headers, body('billing', '2 Office Road'));
    expect(office.isDefault).toBe(true);
    const marina = await save(app, shopper.headers, body('shipping', '3 Marina'));
    expect(marina.isDefault).toBe(false);

    const changed = await app.inject({
      method: 'PUT',
      url: `${URL}/${marina.id}`,
      headers: shopper.headers,
      payload: body('shipping', '3 Marina Pier', { isDefault: true }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ isDefault: true, address: { line1: '3 Marina Pier' } });
    let all = await list(app, shopper.headers);
    expect(defaults(all, 'shipping')).toEqual([marina.id]);
    expect(all[0]!.id).toBe(marina.id);

    // Deleting the default hands it to the newest remaining address of its kind.
    const removed = await app.inject({ method: 'DELETE', url: `${URL}/${marina.id}`, headers: shopper.headers });
    expect(removed.statusCode).toBe(204);
    all = await list(app, shopper.headers);
    expect(all.map((a) => a.id).sort()).toEqual([home.id, office.id].sort());
    expect(defaults(all, 'shipping')).toEqual([home.id]);

    // Moving the billing default to shipping leaves billing empty and shipping with one default.
    const moved = await app.inject({
      method: 'PUT',
      url: `${URL}/${office.id}`,
      headers: shopper.headers,
      payload: body('shipping', '2 Office Road'),
    });
    expect(moved.json()).toMatchObject({ kind: 'shipping', isDefault: false });
    all = await list(app, shopper.headers);
    expect(defaults(all, 'shipping')).toEqual([home.id]);
    expect(defaults(all, 'billing')).toEqual([]);
  });

  test("another account's address is 404 for every change, and never listed", async ({ app, shopper }) => {
    const other = await createUserWithSession(app);
    const theirs = await save(app, other.headers, body('shipping', '9 Their Street'));
    expect(await list(app, shopper.headers)).toEqual([]);
    for (const [method, url, payload] of [
      ['PUT', `${URL}/${theirs.id}`, body('shipping', 'Hijacked')],
      ['PUT', `${URL}/${theirs.id}/default`, undefined],
      ['DELETE', `${URL}/${theirs.id}`, undefined],
      ['PUT', `${URL}/not-a-uuid`, body('shipping', 'x')],
      ['DELETE', `${URL}/00000000-0000-4000-8000-000000000000`, undefined],
    ] as const) {
      const response = await app.inject({ method, url, headers: shopper.headers, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await list(app, other.headers)).toMatchObject([{ id: theirs.id, address: { line1: '9 Their Street' } }]);
  });

  test('refuses a visitor, a request without the CSRF token, and bad input with 400', async ({ app, shopper, csrf }) => {
    expect((await app.inject({ method: 'GET', url: URL, headers: csrf.headers })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: URL, headers: csrf.headers, payload: body('shipping', 'x') })).statusCode).toBe(401);
    const { 'x-csrf-token': _token, ...withoutToken } = shopper.headers;
    const forged = await app.inject({ method: 'POST', url: URL, headers: withoutToken, payload: body('shipping', 'x') });
    expect(forged.statusCode).toBe(403);

    const bad = [
      body('office' as 'shipping', '1 Street'),
      body('shipping', '   '),
      body('shipping', 'x'.repeat(201)),
      { ...body('shipping', '1 Street'), address: { ...body('shipping', '').address, line1: '1 Street', country: 'Ireland' } },
      { ...body('shipping', '1 Street'), address: { line1: '1 Street', city: 'Cork', postal_code: 'T12', country: 'IE' } },
      { ...body('shipping', '1 Street'), name: '' },
      body('shipping', 'broken \uD800 text'),
    ];
    for (const payload of bad) {
      const response = await app.inject({ method: 'POST', url: URL, headers: shopper.headers, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await list(app, shopper.headers)).toEqual([]);
  });

  test('keeps one default per kind when requests race', async ({ app, shopper }) => {
    const saved = [];
    for (const line1 of ['A', 'B', 'C', 'D']) saved.push(await save(app, shopper.headers, body('shipping', line1)));
    await save(app, shopper.headers, body('billing', 'Bill'));
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([
        ...saved.map((address) => app.inject({ method: 'PUT', url: `${URL}/${address.id}/default`, headers: shopper.headers })),
        app.inject({ method: 'POST', url: URL, headers: shopper.headers, payload: body('shipping', `New ${round}`, { isDefault: true }) }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
      const all = await list(app, shopper.headers);
      expect(defaults(all, 'shipping')).toHaveLength(1);
      expect(defaults(all, 'billing')).toHaveLength(1);
    }
    const rows = await app.db.selectFrom('saved_addresses').select(['kind']).where('is_default', '=', true).execute();
    expect(rows.map((row) => row.kind).sort()).toEqual(['billing', 'shipping']);
  });

  test('is listed by the export and deleted by erasure', async ({ app, shopper }) => {
    await save(app, shopper.headers, body('shipping', '1 Quay Street'));
    const archive = await collectPersonalData(app.db, shopper.user.id);
    expect(archive.addresses).toMatchObject([
      { kind: 'shipping', is_default: true, name: 'Ada Lovelace', address: { line1: '1 Quay Street' } },
    ]);
    await app.db.transaction().execute((trx) => eraseAccount(trx, shopper.user.id));
    expect(await app.db.selectFrom('saved_addresses').selectAll().where('user_id', '=', shopper.user.id).execute()).toEqual([]);
  });
});
