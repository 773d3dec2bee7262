import { describe, expect, it } from 'vitest';
import { EMPTY_BOAT_SPECS } from '@boatshop/contract/constants';
import { draftFromSpecs, parseSpecsDraft } from './boat-specs-draft';

describe('the specification fields', () => {
  it('turn typed text into metric specifications, empty fields into unknown', () => {
    const draft = {
      ...draftFromSpecs(undefined),
      builder: ' Halvard ',
      lengthM: '9,45',
      cabins: '2',
      locationCountry: 'fr',
      ceCategory: 'A',
    };
    expect(parseSpecsDraft(draft)).toEqual({
      ok: true,
      specs: { ...EMPTY_BOAT_SPECS, builder: 'Halvard', lengthM: 9.45, cabins: 2, locationCountry: 'FR', ceCategory: 'A' },
    });
  });

  it('round-trip a product’s specifications', () => {
    const specs = { ...EMPTY_BOAT_SPECS, model: '31', yearBuilt: 2019, draftM: 1.95, fuel: 'diesel' as const };
    expect(parseSpecsDraft(draftFromSpecs(specs))).toEqual({ ok: true, specs });
  });

  it('list every field that cannot be read', () => {
    const draft = { ...draftFromSpecs(undefined), lengthM: '9.455', cabins: 'two', yearBuilt: '1700', locationCountry: 'France' };
    const result = parseSpecsDraft(draft);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems).toEqual([
      'Country must be a two-letter code such as FR or GB, or empty',
      'Year built must be a whole number from 1850 to 2200, or empty',
      'Length overall (m) must be a number with up to 2 decimals from 0.01 to 200, or empty',
      'Cabins must be a whole number from 0 to 100, or empty',
    ]);
  });
});
