import type { Category } from '@boatshop/contract';
import type { NewProductRow } from '../../src/features/products/products.table.js';
import type { TestApp } from './build-test-app.js';

let counter = 0;

/** A valid product row; override any column. */
export function productRow(overrides: Partial<NewProductRow> = {}): NewProductRow {
  counter += 1;
  return {
    name: `Test Boat ${counter}`,
    thumbnail_url: `/api/images/test-${counter}.svg`,
    price_cents: 2_000_000 + counter,
    description_html: '<p>A test boat.</p>',
    category: (counter % 2 === 0 ? 'yachts' : 'sailing-boats') satisfies Category,
    ...overrides,
  };
}

export async function insertProducts(app: TestApp, rows: NewProductRow[]) {
  // Batches keep each statement under PostgreSQL's 65,535 bind parameters.
  const inserted: { id: string; created_at: Date; name: string; category: Category }[] = [];
  for (let start = 0; start < rows.length; start += 1000) {
    inserted.push(
      ...(await app.db
        .insertInto('products')
        .values(rows.slice(start, start + 1000))
        .returning(['id', 'created_at', 'name', 'category'])
        .execute()),
    );
  }
  return inserted;
}

export async function insertProduct(app: TestApp, overrides: Partial<NewProductRow> = {}) {
  const [row] = await insertProducts(app, [productRow(overrides)]);
  return row!;
}
