import { describe, expect, it } from 'vitest';
import { buildHead } from './head';
import { matchPage } from './pages';
import { SHOP_ROUTES } from './test/shop-routes';

const PUBLIC_URL = 'https://boats.example';
const ID = '0b7e6f4e-6a43-4d3f-9b7e-2f1c7a9d5e11';

function jsonLdFor(specs: Record<string, unknown> | undefined) {
  const path = `/product/${ID}`;
  const product = { id: ID, name: 'Nordvik 27 Classic', priceCents: 3_890_000, ...(specs ? { specs } : {}) };
  return buildHead(matchPage(path, new URLSearchParams(), SHOP_ROUTES), path, { product }, PUBLIC_URL).jsonLd as unknown as Record<
    string,
    unknown
  >;
}

describe('a product page head with boat specifications', () => {
  it('lists the known ones as additionalProperty, with unit codes on measured values, and a used boat as used', () => {
    const jsonLd = jsonLdFor({ builder: 'Nordvik', yearBuilt: 1998, condition: 'used', lengthM: 8.2, displacementKg: 3200, beamM: null });
    expect(jsonLd.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Builder', value: 'Nordvik' },
      { '@type': 'PropertyValue', name: 'Year built', value: 1998 },
      { '@type': 'PropertyValue', name: 'Length overall', value: 8.2, unitCode: 'MTR' },
      { '@type': 'PropertyValue', name: 'Displacement', value: 3200, unitCode: 'KGM' },
    ]);
    expect(jsonLd.offers).toMatchObject({ itemCondition: 'https://schema.org/UsedCondition' });
  });

  it('has no additionalProperty when nothing is known, and a new condition', () => {
    const jsonLd = jsonLdFor(undefined);
    expect(jsonLd).not.toHaveProperty('additionalProperty');
    expect(jsonLd.offers).toMatchObject({ itemCondition: 'https://schema.org/NewCondition' });
  });
});
