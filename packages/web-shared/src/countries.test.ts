import { describe, expect, it } from 'vitest';
import { COUNTRIES, regionsOf } from './countries';

describe('countries from country-region-data', () => {
  it('offers every country by its two-letter code', () => {
    expect(COUNTRIES.length).toBeGreaterThan(200);
    expect(COUNTRIES.every((country) => /^[A-Z]{2}$/.test(country.code))).toBe(true);
    expect(COUNTRIES.find((country) => country.code === 'IE')?.name).toBe('Ireland');
  });

  it("lists a country's regions with their codes", () => {
    expect(regionsOf('IE')).toContainEqual({ value: 'CO', label: 'Cork' });
    expect(regionsOf('DE')).toContainEqual({ value: 'BY', label: 'Bayern' });
  });

  it('stores a region without a code by its name', () => {
    const uncoded = COUNTRIES.flatMap((country) => country.regions).filter((region) => region.value === region.label);
    expect(uncoded.length).toBeGreaterThan(0);
  });

  it('has no regions for an unknown code', () => {
    expect(regionsOf('')).toEqual([]);
  });
});
