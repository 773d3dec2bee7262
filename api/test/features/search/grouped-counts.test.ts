import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupedCounts } from '../../../src/features/search/grouped-counts.js';
import { filtersOf } from '../../../src/features/search/search-filters.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';

// A facet counting very many boats is estimated from the one-in-sixteen sample, except the values
// chosen, which are the list itself and stay exact (docs/adr/0048). The threshold is lowered here
// so 800 boats are "very many".
const BUILDERS = ['Alpha', 'Bravo', 'Charlie', 'Delta'];

describe('grouped facet counts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
    await resetDatabase(app);
    await app.db
      .insertInto('products')
      .values(
        Array.from({ length: 800 }, (_, n) => ({
          name: `Sample boat ${n}`,
          thumbnail_url: '/api/images/aldren-22-daysailer.svg',
          price_cents: 1_000_000 + n,
          category: 'sailing-boats' as const,
          builder: BUILDERS[n % 4]!,
          length_overall_cm: 1000 + (n % 50) * 20,
          year_built: 2000 + (n % 25),
        })),
      )
      .execute();
  }, 60_000);
  afterAll(() => app?.close());

  const filters = (builder?: string) => filtersOf({ sort: 'newest', limit: 6, lengthMin: 10, yearMin: 2000, builder });

  it('estimates the values not chosen above the threshold, marked approximate, and counts the chosen one exactly', async () => {
    const counts = await groupedCounts(app.db, filters('Bravo'), 'builder', 'builder', ['Bravo'], {
      approximate: true,
      approximateAbove: 100,
    });
    expect(counts.find((row) => row.value === 'Bravo')).toEqual({ value: 'Bravo', count: 200 });
    const others = counts.filter((row) => row.value !== 'Bravo');
    expect(others.length).toBeGreaterThan(0);
    for (const row of others) {
      expect(row.approximate).toBe(true);
      expect(row.count).toBeGreaterThan(50);
      expect(row.count).toBeLessThan(400);
    }
  });

  it('counts exactly below the threshold, or when asked for exact counts', async () => {
    const exact = [
      { value: 'Alpha', count: 200 },
      { value: 'Bravo', count: 200 },
      { value: 'Charlie', count: 200 },
      { value: 'Delta', count: 200 },
    ];
    expect(await groupedCounts(app.db, filters(), 'builder', 'builder', [], { approximate: true })).toEqual(exact);
    expect(await groupedCounts(app.db, filters(), 'builder', 'builder', [], { approximate: false, approximateAbove: 100 })).toEqual(exact);
  });
});
