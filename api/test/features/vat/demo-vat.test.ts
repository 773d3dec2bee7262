import { describe, expect, it } from 'vitest';
import { DEMO_PRODUCTS, demoVatColumns } from '../../../src/db/seed/demo-products.js';

describe('the demo boats’ VAT treatments', () => {
  it('sells new models as new boats with their length, used boats under the margin scheme, the VAT-paid yacht with VAT', () => {
    const bySlug = new Map(DEMO_PRODUCTS.map((product) => [product.slug, demoVatColumns(product)]));
    expect(bySlug.get('aldren-22-daysailer')).toEqual({ vat_treatment: 'new_boat', vat_length_cm: 670 });
    expect(bySlug.get('nordvik-27-classic')).toEqual({ vat_treatment: 'margin_scheme' });
    expect(bySlug.get('belmare-64-sport')).toEqual({ vat_treatment: 'vat_paid_own_stock' });
    for (const product of DEMO_PRODUCTS.filter((p) => p.yearBuilt === undefined)) {
      expect(bySlug.get(product.slug)!.vat_length_cm, product.slug).toBeGreaterThan(0);
    }
  });
});
