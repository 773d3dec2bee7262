import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product, ProductPage } from '@boatshop/contract';
import { releaseOrderStock, reserveOrderStock } from '../../../src/features/stock/stock.repository.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';

// The catalogue read cache, on PGlite and on PostgreSQL. buildTestApp turns the cache off for
// every other test file; here it is on, as in production.
const CACHE_ON = { catalogCache: { ttlMs: 60_000, maxEntries: 1000 } };
const onPostgres = Boolean(process.env.DATABASE_URL);

function productInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Contessa 32',
    thumbnailUrl: '/api/images/contessa-32.svg',
    priceCents: 4_900_000,
    descriptionHtml: '<p>A proven offshore boat.</p>',
    category: 'sailing-boats',
    ...overrides,
  };
}

async function listNames(app: TestApp, query = ''): Promise<string[]> {
  const response = await app.inject({ method: 'GET', url: `/api/products${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as ProductPage).data.map((product) => product.name);
}

/**
 * Runs `write` with the products trigger off, so no notification tells the cache: whatever
 * empties it then can only be the code under test.
 */
async function withoutNotifications(app: TestApp, write: () => Promise<unknown>): Promise<void> {
  await sql`alter table products disable trigger products_changed`.execute(app.db);
  try {
    await write();
  } finally {
    await sql`alter table products enable trigger products_changed`.execute(app.db);
  }
}

/**
 * Waits until `app` has heard every products_changed notification sent so far (PostgreSQL
 * delivers them in commit order, so a fresh one heard means the earlier ones were), so that a
 * late notification from a test's own setup cannot empty the cache in the middle of the test.
 */
async function settled(app: TestApp): Promise<void> {
  const clear = vi.spyOn(app.catalogCache, 'clear');
  const barrier = `test-barrier-${Math.random()}`;
  try {
    await sql`select pg_notify('products_changed', ${barrier})`.execute(app.db);
    await vi.waitFor(() => expect(clear).toHaveBeenCalledWith(barrier), { timeout: 5_000, interval: 10 });
  } finally {
    clear.mockRestore();
  }
}

/** Bounded wait for what a notification brings; fails after 5 s. */
function eventually(assertion: () => Promise<void>): Promise<void> {
  return vi.waitFor(assertion, { timeout: 5_000, interval: 25 });
}

describe('catalogue read cache', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp(CACHE_ON);
  });
  beforeEach(async () => {
    await resetDatabase(app);
    // The reset's own notification may still be on its way (PostgreSQL).
    await settled(app);
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => app?.close());

  it('answers a repeated list or product read without asking the database, with the same body', async () => {
    const boat = await insertProduct(app, { name: 'Folkboat' });
    await settled(app);
    const queries = vi.spyOn(app.db, 'selectFrom');

    const first = await app.inject({ method: 'GET', url: '/api/products?filterType=sailing-boats&limit=12' });
    expect(queries).toHaveBeenCalledTimes(1);
    const second = await app.inject({ method: 'GET', url: '/api/products?filterType=sailing-boats&limit=12' });
    expect(queries).toHaveBeenCalledTimes(1);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((second.json() as ProductPage).data.map((product) => product.id)).toEqual([boat.id]);

    // Another page, filter or limit is another entry.
    await app.inject({ method: 'GET', url: '/api/products?limit=12' });
    expect(queries).toHaveBeenCalledTimes(2);

    const one = await app.inject({ method: 'GET', url: `/api/products/${boat.id}` });
    const again = await app.inject({ method: 'GET', url: `/api/products/${boat.id}` });
    // One product read is two queries (the product, its pictures), made once.
    expect(queries).toHaveBeenCalledTimes(4);
    expect(again.body).toBe(one.body);
    expect((again.json() as Product).name).toBe('Folkboat');
  });

  it('caches no error: an unknown product and a bad cursor ask the database each time', async () => {
    const queries = vi.spyOn(app.db, 'selectFrom');
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 2; i += 1) {
      const response = await app.inject({ method: 'GET', url: `/api/products/${unknown}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
    }
    expect(queries).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 2; i += 1) {
      expect((await app.inject({ method: 'GET', url: '/api/products?cursor=bogus' })).statusCode).toBe(400);
    }
  });

  it('shows an admin create, update and delete made through the API at once, without waiting for a notification', async () => {
    const admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
    const write = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

    expect(await listNames(app)).toEqual([]);
    let id = '';
    await withoutNotifications(app, async () => {
      const created = await write('POST', '/api/admin/products', productInput({ name: 'Contessa 32' }));
      expect(created.statusCode).toBe(201);
      id = created.json().id;
    });
    expect(await listNames(app)).toEqual(['Contessa 32']);
    expect((await app.inject({ method: 'GET', url: `/api/products/${id}` })).json().name).toBe('Contessa 32');

    await withoutNotifications(app, async () => {
      expect((await write('PUT', `/api/admin/products/${id}`, productInput({ name: 'Contessa 32 Mk II' }))).statusCode).toBe(200);
    });
    expect(await listNames(app)).toEqual(['Contessa 32 Mk II']);
    expect((await app.inject({ method: 'GET', url: `/api/products/${id}` })).json().name).toBe('Contessa 32 Mk II');

    await withoutNotifications(app, async () => {
      expect((await write('DELETE', `/api/admin/products/${id}`)).statusCode).toBe(204);
    });
    expect(await listNames(app)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `/api/products/${id}` })).statusCode).toBe(404);
  });

  it('sees a write made outside the API (plain SQL) once the products_changed notification arrives', async () => {
    const boat = await insertProduct(app, { name: 'Albin Vega' });
    expect(await listNames(app)).toEqual(['Albin Vega']);
    expect((await app.inject({ method: 'GET', url: `/api/products/${boat.id}` })).json().name).toBe('Albin Vega');

    await app.db.updateTable('products').set({ name: 'Albin Vega 27' }).where('id', '=', boat.id).execute();
    await insertProduct(app, { name: 'Hurley 22', created_at: new Date(Date.now() + 60_000) });

    await eventually(async () => {
      expect(await listNames(app)).toEqual(['Hurley 22', 'Albin Vega 27']);
      expect((await app.inject({ method: 'GET', url: `/api/products/${boat.id}` })).json().name).toBe('Albin Vega 27');
    });
  });

  it('really relies on the notification: a write with the trigger off stays unseen while cached', async () => {
    // The counterpart of the test above, so that one cannot pass merely because nothing is cached.
    const boat = await insertProduct(app, { name: 'Westerly Centaur' });
    await settled(app);
    expect(await listNames(app)).toEqual(['Westerly Centaur']);
    await withoutNotifications(app, () => app.db.updateTable('products').set({ name: 'Renamed' }).where('id', '=', boat.id).execute());
    expect(await listNames(app)).toEqual(['Westerly Centaur']);
    app.catalogCache.clear();
    expect(await listNames(app)).toEqual(['Renamed']);
  });

  it('leaves the cart refresh (GET /api/products/by-ids) on the database: it sees a new price the cache has not', async () => {
    const boat = await insertProduct(app, { price_cents: 3_000_000 });
    await settled(app);
    expect((await app.inject({ method: 'GET', url: `/api/products/${boat.id}` })).json().priceCents).toBe(3_000_000);
    await withoutNotifications(app, () =>
      app.db.updateTable('products').set({ price_cents: 3_100_000 }).where('id', '=', boat.id).execute(),
    );

    const byIds = await app.inject({ method: 'GET', url: `/api/products/by-ids?ids=${boat.id}` });
    expect(byIds.json().data[0].priceCents).toBe(3_100_000);
    // The cached page still says 3,000,000: proof that by-ids did not come from it.
    expect((await app.inject({ method: 'GET', url: `/api/products/${boat.id}` })).json().priceCents).toBe(3_000_000);
  });

  it('shows a boat as reserved, and free again, as soon as an order holds or releases its unit', async () => {
    const boat = await insertProduct(app, { name: 'Nordvik 27 Classic', stock_on_hand: 1 });
    const { user } = await createUserWithSession(app);
    const address = JSON.stringify({ name: 'S', address: { line1: '1', city: 'C', state: 'S', postal_code: 'P', country: 'IE' } });
    const order = await app.db
      .insertInto('orders')
      .values({
        user_id: user.id,
        status: 'pending',
        total_cents: 100,
        shipping: address,
        billing: address,
        payment_reference: null,
        paid_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('order_items')
      .values({
        order_id: order.id,
        product_id: boat.id,
        name: boat.name,
        thumbnail_url: '/api/images/x.svg',
        unit_price_cents: 100,
        quantity: 1,
      })
      .execute();
    await settled(app);
    const availability = async () => (await app.inject({ url: `/api/products/${boat.id}` })).json<Product>().availability;
    expect(await availability()).toBe('in_stock');
    expect(await listNames(app)).toEqual(['Nordvik 27 Classic']);

    await app.db.transaction().execute((trx) => reserveOrderStock(trx, order.id));
    await eventually(async () => expect(await availability()).toBe('reserved'));

    await app.db.transaction().execute((trx) => releaseOrderStock(trx, order.id));
    await eventually(async () => expect(await availability()).toBe('in_stock'));
  });
});

describe('catalogue read cache with CATALOG_CACHE_TTL_MS=0', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ catalogCache: { ttlMs: 0, maxEntries: 1000 } });
  });
  beforeEach(() => resetDatabase(app));
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => app?.close());

  it('reads the database on every request', async () => {
    const boat = await insertProduct(app, { name: 'Nicholson 32' });
    expect(app.catalogCache.enabled).toBe(false);
    const queries = vi.spyOn(app.db, 'selectFrom');
    for (let i = 0; i < 2; i += 1) {
      expect(await listNames(app)).toEqual(['Nicholson 32']);
      await app.inject({ method: 'GET', url: `/api/products/${boat.id}` });
    }
    // Each round: the list, and the product with its pictures.
    expect(queries).toHaveBeenCalledTimes(6);
    await withoutNotifications(app, () => app.db.updateTable('products').set({ name: 'Nicholson 35' }).where('id', '=', boat.id).execute());
    expect(await listNames(app)).toEqual(['Nicholson 35']);
  });
});

// Two API processes on one PostgreSQL database: what one writes, the other's cache lets go of.
// (PGlite is one process's own database, so there is no second replica to ask.)
describe.skipIf(!onPostgres)('catalogue read cache across replicas (PostgreSQL)', () => {
  let replicaA: TestApp;
  let replicaB: TestApp;
  beforeAll(async () => {
    replicaA = await buildTestApp(CACHE_ON);
    replicaB = await buildTestApp(CACHE_ON);
  });
  beforeEach(async () => {
    await resetDatabase(replicaA);
    await settled(replicaA);
    await settled(replicaB);
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
  });

  it("shows replica B's admin writes on replica A after the notification", async () => {
    const admin = await createUserWithSession(replicaB, { roles: ['user', 'owner'] });
    expect(await listNames(replicaA)).toEqual([]);

    const created = await replicaB.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: admin.headers,
      payload: productInput({ name: 'Vertue' }),
    });
    expect(created.statusCode).toBe(201);
    await eventually(async () => expect(await listNames(replicaA)).toEqual(['Vertue']));

    const { id } = created.json();
    expect((await replicaA.inject({ method: 'GET', url: `/api/products/${id}` })).json().priceCents).toBe(4_900_000);
    const updated = await replicaB.inject({
      method: 'PUT',
      url: `/api/admin/products/${id}`,
      headers: admin.headers,
      payload: productInput({ name: 'Vertue', priceCents: 5_100_000 }),
    });
    expect(updated.statusCode).toBe(200);
    await eventually(async () => {
      expect((await replicaA.inject({ method: 'GET', url: `/api/products/${id}` })).json().priceCents).toBe(5_100_000);
    });

    expect((await replicaB.inject({ method: 'DELETE', url: `/api/admin/products/${id}`, headers: admin.headers })).statusCode).toBe(204);
    await eventually(async () => {
      expect((await replicaA.inject({ method: 'GET', url: `/api/products/${id}` })).statusCode).toBe(404);
      expect(await listNames(replicaA)).toEqual([]);
    });
  });

  it('stops serving from the cache when its listening connection dies, and comes back empty', async () => {
    const boat = await insertProduct(replicaA, { name: 'Corribee' });
    await settled(replicaA);
    expect(await listNames(replicaA)).toEqual(['Corribee']);
    const suspend = vi.spyOn(replicaA.catalogCache, 'suspend');
    const resume = vi.spyOn(replicaA.catalogCache, 'resume');

    // A change nobody is told about (trigger off), then the listener's connection is killed:
    // whatever it might have missed, the cache must not keep serving what it had.
    await withoutNotifications(replicaA, () =>
      replicaA.db.updateTable('products').set({ name: 'Corribee 21' }).where('id', '=', boat.id).execute(),
    );
    expect(await listNames(replicaA)).toEqual(['Corribee']);
    const { rows } = await sql<{ terminated: boolean }>`
      select pg_terminate_backend(pid) as terminated from pg_stat_activity
      where datname = current_database() and application_name = 'listen:products_changed'
    `.execute(replicaA.db);
    expect(rows.length).toBeGreaterThanOrEqual(2);

    await eventually(async () => {
      expect(suspend).toHaveBeenCalled();
      expect(resume).toHaveBeenCalled();
      expect(replicaA.catalogCache.enabled).toBe(true);
    });
    expect(await listNames(replicaA)).toEqual(['Corribee 21']);
    // And the new connection hears changes again.
    await replicaA.db.updateTable('products').set({ name: 'Corribee Mk 2' }).where('id', '=', boat.id).execute();
    await eventually(async () => expect(await listNames(replicaA)).toEqual(['Corribee Mk 2']));
  });
});
