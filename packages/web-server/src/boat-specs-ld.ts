import type { PropertyValue } from 'schema-dts';

/** The boat specifications a page head uses, metric, as GET /api/products/:id returns them (null: unknown). */
export interface HeadBoatSpecs {
  builder?: string | null;
  model?: string | null;
  yearBuilt?: number | null;
  condition?: 'new' | 'used' | null;
  lengthM?: number | null;
  beamM?: number | null;
  draftM?: number | null;
  displacementKg?: number | null;
  hullMaterial?: string | null;
  engineCount?: number | null;
  engineMake?: string | null;
  enginePowerHp?: number | null;
  engineHours?: number | null;
  fuel?: string | null;
  cabins?: number | null;
  berths?: number | null;
  heads?: number | null;
  ceCategory?: string | null;
  locationMarina?: string | null;
  locationCountry?: string | null;
}

// name, the field, and the UN/CEFACT unit code schema.org asks for on a measured value.
const PROPERTIES: [string, keyof HeadBoatSpecs, string?][] = [
  ['Builder', 'builder'],
  ['Model', 'model'],
  ['Year built', 'yearBuilt'],
  ['Length overall', 'lengthM', 'MTR'],
  ['Beam', 'beamM', 'MTR'],
  ['Draft', 'draftM', 'MTR'],
  ['Displacement', 'displacementKg', 'KGM'],
  ['Hull material', 'hullMaterial'],
  ['Number of engines', 'engineCount'],
  ['Engine make', 'engineMake'],
  ['Engine power', 'enginePowerHp', 'BHP'],
  ['Engine hours', 'engineHours', 'HUR'],
  ['Fuel', 'fuel'],
  ['Cabins', 'cabins'],
  ['Berths', 'berths'],
  ['Heads', 'heads'],
  ['CE design category', 'ceCategory'],
  ['Marina', 'locationMarina'],
  ['Country', 'locationCountry'],
];

/** The known specifications as schema.org `additionalProperty` values; none when none is known. */
export function boatSpecsProperties(specs: HeadBoatSpecs | null | undefined): PropertyValue[] {
  if (!specs) return [];
  return PROPERTIES.flatMap(([name, key, unitCode]) => {
    const value = specs[key];
    if (value === null || value === undefined || value === '') return [];
    return [{ '@type': 'PropertyValue', name, value, ...(unitCode ? { unitCode } : {}) } as PropertyValue];
  });
}

/** schema.org's item condition for a boat's condition; new when unknown (a model built to order). */
export function itemCondition(specs: HeadBoatSpecs | null | undefined) {
  return specs?.condition === 'used' ? ('https://schema.org/UsedCondition' as const) : ('https://schema.org/NewCondition' as const);
}
