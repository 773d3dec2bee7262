import { describe, expect, it } from 'vitest';
import { boatSpecRows, countryName, EMPTY_BOAT_SPECS, type BoatSpecValues } from './boat-specs.js';

const SPECS: BoatSpecValues = {
  ...EMPTY_BOAT_SPECS,
  builder: 'Halvard',
  lengthM: 12.2,
  draftM: 1.95,
  displacementKg: 8400,
  engineCount: 2,
  engineMake: 'Yanmar',
  enginePowerHp: 57,
  locationMarina: 'Marstrand',
  locationCountry: 'SE',
  ceCategory: 'A',
};

describe('boatSpecRows', () => {
  it('shows the known figures in metric, leaving out the unknown ones', () => {
    expect(boatSpecRows(SPECS, 'metric').map((row) => [row.label, row.text])).toEqual([
      ['Builder', 'Halvard'],
      ['Length overall', '12.20 m'],
      ['Draft', '1.95 m'],
      ['Displacement', '8,400 kg'],
      ['Engines', '2 × Yanmar 57 hp'],
      ['CE design category', 'A (ocean)'],
      ['Location', 'Marstrand, Sweden'],
    ]);
  });

  it('converts lengths to feet and weights to pounds in imperial', () => {
    const rows = Object.fromEntries(boatSpecRows(SPECS, 'imperial').map((row) => [row.key, row.text]));
    expect(rows).toMatchObject({ lengthM: '40.0 ft', draftM: '6.4 ft', displacementKg: '18,519 lb' });
  });
});

describe('countryName', () => {
  it("names every two-letter code as this Node's Intl.DisplayNames does (else: npm run generate:country-names -w packages/contract)", () => {
    const intl = new Intl.DisplayNames(['en'], { type: 'region' });
    for (let first = 65; first <= 90; first += 1) {
      for (let second = 65; second <= 90; second += 1) {
        const code = String.fromCharCode(first, second);
        expect(countryName(code), code).toBe(intl.of(code) ?? code);
      }
    }
    expect(countryName('SE')).toBe('Sweden');
    expect(countryName('not a code')).toBe('not a code');
  });
});
