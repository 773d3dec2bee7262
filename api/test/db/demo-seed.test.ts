import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PRODUCTS } from '../../src/db/seed/demo-products.js';
import { seedDemoData } from '../../src/db/seed/seed.js';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';

describe('the demo catalogue', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
    await resetDatabase(app);
    await seedDemoData(app.db);
  });
  afterAll(() => app?.close());

  it('gives each used boat (one with a build year) a stock of 1 and every new model none (built to order)', async () => {
    const rows = await app.db.selectFrom('products').select(['name', 'stock_on_hand', 'description_html']).orderBy('name').execute();
    expect(rows).toHaveLength(DEMO_PRODUCTS.length);
    const used = rows.filter((row) => row.stock_on_hand !== null);
    expect(used.map((row) => [row.name, row.stock_on_hand])).toEqual([
      ['Belmare 64 Sport', 1],
      ['Lisandra 42 Catamaran', 1],
      ['Nordvik 27 Classic', 1],
      ['Seahaven 58 Flybridge', 1],
    ]);
    // The shopper reads why: the used boats' specifications give the year they were built.
    for (const row of rows) expect(row.description_html.includes('Year built:')).toBe(row.stock_on_hand !== null);
  });
});
