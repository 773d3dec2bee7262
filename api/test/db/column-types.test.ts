import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { insertProduct } from '../helpers/products.js';
import { it } from '../support/fixtures.js';

// This file runs on PGlite and on PostgreSQL; the same expectations on both prove the values
// come back identical from either driver.
describe('values read back from the database', () => {
  it('returns int8 money as an exact JavaScript number, up to 2^53 - 1', async ({ app }) => {
    const product = await insertProduct(app, { price_cents: Number.MAX_SAFE_INTEGER });
    const row = await app.db.selectFrom('products').select('price_cents').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(row.price_cents).toBe(9_007_199_254_740_991);
    expect(typeof row.price_cents).toBe('number');
  });

  it('returns counts as numbers and sums of int8 as exact numeric strings, never floats', async ({ app }) => {
    await insertProduct(app, { price_cents: 1_999 });
    await insertProduct(app, { price_cents: 1 });
    const { total, count } = await app.db
      .selectFrom('products')
      .select((eb) => [eb.fn.sum<number>('price_cents').as('total'), eb.fn.countAll<number>().as('count')])
      .executeTakeFirstOrThrow();
    // sum(bigint) is numeric: exact, left as a string by both drivers.
    expect(total).toBe('2000');
    expect(count).toBe(2);
  });

  it('refuses an int8 beyond 2^53 rather than rounding it', async ({ app }) => {
    await expect(sql`select 9007199254740993::int8 as n`.execute(app.db)).rejects.toThrow(RangeError);
  });

  it('stores and returns timestamps to the millisecond, as Date', async ({ app }) => {
    const createdAt = new Date('2024-07-14T09:08:07.654Z');
    const product = await insertProduct(app, { created_at: createdAt });
    const row = await app.db.selectFrom('products').select('created_at').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(row.created_at).toBeInstanceOf(Date);
    expect(row.created_at.toISOString()).toBe('2024-07-14T09:08:07.654Z');
  });

  it('rounds sub-millisecond database times to what a JavaScript Date can carry', async ({ app }) => {
    const { rows } = await sql<{ at: Date }>`select '2024-07-14 09:08:07.6545+00'::timestamptz(3) as at`.execute(app.db);
    expect(rows[0]!.at.toISOString()).toBe('2024-07-14T09:08:07.655Z');
  });

  it('keeps products without a name, picture or price out of the catalogue', async ({ app }) => {
    await expect(insertProduct(app, { name: '  ' })).rejects.toThrow();
    await expect(insertProduct(app, { thumbnail_url: '' })).rejects.toThrow();
    await expect(insertProduct(app, { price_cents: 0 })).rejects.toThrow();
    await expect(insertProduct(app, { category: 'submarines' as 'yachts' })).rejects.toThrow();
  });
});
