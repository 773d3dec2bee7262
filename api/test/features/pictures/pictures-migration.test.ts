import { describe, expect } from 'vitest';
import { down, up } from '../../../src/db/migrations/2026_11_28_100000_add_product_pictures.js';
import { seedDemoData } from '../../../src/db/seed/seed.js';
import { DEMO_PRODUCTS, demoDescriptionHtml, demoImageUrl } from '../../../src/db/seed/demo-products.js';
import { it } from '../../support/fixtures.js';

describe('pictures of boats listed before galleries', () => {
  it("each boat's picture address becomes its first picture, with its name as text alternative", async ({ app }) => {
    // The shop as it was before the table: the 26 demo boats, one picture address each.
    await down(app.db);
    try {
      await app.db
        .insertInto('products')
        .values(
          DEMO_PRODUCTS.map((product) => ({
            name: product.name,
            thumbnail_url: demoImageUrl(product),
            price_cents: product.priceEur * 100,
            description_html: demoDescriptionHtml(product),
            category: product.category,
          })),
        )
        .execute();
    } finally {
      await up(app.db);
    }

    const rows = await app.db
      .selectFrom('product_pictures')
      .innerJoin('products', 'products.id', 'product_pictures.product_id')
      .select([
        'products.id',
        'products.name',
        'products.thumbnail_url',
        'product_pictures.url',
        'product_pictures.alt',
        'product_pictures.position',
      ])
      .execute();
    expect(rows).toHaveLength(26);
    for (const row of rows) expect(row).toMatchObject({ url: row.thumbnail_url, alt: row.name, position: 0 });

    const product = (await app.inject({ url: `/api/products/${rows[0]!.id}` })).json();
    expect(product.thumbnailUrl).toBe(rows[0]!.thumbnail_url);
    expect(product.pictures).toEqual([
      {
        id: expect.any(String),
        alt: rows[0]!.name,
        src: rows[0]!.thumbnail_url,
        width: null,
        height: null,
        placeholder: null,
        variants: [],
      },
    ]);
    const picture = await app.inject({ url: product.pictures[0].src });
    expect(picture.statusCode).toBe(200);
  });

  it('the demo seed gives every boat its picture as its first picture', async ({ app }) => {
    await seedDemoData(app.db);
    const counts = await app.db
      .selectFrom('products')
      .leftJoin('product_pictures', 'product_pictures.product_id', 'products.id')
      .select(['products.id', (eb) => eb.fn.count<number>('product_pictures.id').as('pictures')])
      .groupBy('products.id')
      .execute();
    expect(counts).toHaveLength(DEMO_PRODUCTS.length);
    expect(counts.every((row) => Number(row.pictures) === 1)).toBe(true);
  });
});
