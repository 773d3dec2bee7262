import { BOAT_LIMITS, EMPTY_BOAT_SPECS, type BoatSpecs } from '@boatshop/contract';
import type { ProductRow } from './products.table.js';

// A boat's specifications between the contract (metres) and the columns (whole centimetres).

export const BOAT_SPEC_COLUMNS = [
  'builder',
  'model',
  'year_built',
  'condition',
  'length_overall_cm',
  'beam_cm',
  'draft_cm',
  'displacement_kg',
  'hull_material',
  'engine_count',
  'engine_make',
  'engine_power_hp',
  'engine_hours',
  'fuel',
  'cabins',
  'berths',
  'heads',
  'ce_category',
  'location_marina',
  'location_country',
] as const;

type SpecColumns = Pick<ProductRow, (typeof BOAT_SPEC_COLUMNS)[number]>;

const toMetres = (cm: number | null) => (cm === null ? null : cm / 100);
const toCentimetres = (m: number | null) => (m === null ? null : Math.round(m * 100));

export function rowToSpecs(row: SpecColumns): BoatSpecs {
  return {
    builder: row.builder,
    model: row.model,
    yearBuilt: row.year_built,
    condition: row.condition,
    lengthM: toMetres(row.length_overall_cm),
    beamM: toMetres(row.beam_cm),
    draftM: toMetres(row.draft_cm),
    displacementKg: row.displacement_kg,
    hullMaterial: row.hull_material,
    engineCount: row.engine_count,
    engineMake: row.engine_make,
    enginePowerHp: row.engine_power_hp,
    engineHours: row.engine_hours,
    fuel: row.fuel,
    cabins: row.cabins,
    berths: row.berths,
    heads: row.heads,
    ceCategory: row.ce_category,
    locationMarina: row.location_marina,
    locationCountry: row.location_country,
  };
}

export function specsToRow(specs: BoatSpecs): SpecColumns {
  return {
    builder: specs.builder,
    model: specs.model,
    year_built: specs.yearBuilt,
    condition: specs.condition,
    length_overall_cm: toCentimetres(specs.lengthM),
    beam_cm: toCentimetres(specs.beamM),
    draft_cm: toCentimetres(specs.draftM),
    displacement_kg: specs.displacementKg,
    hull_material: specs.hullMaterial,
    engine_count: specs.engineCount,
    engine_make: specs.engineMake,
    engine_power_hp: specs.enginePowerHp,
    engine_hours: specs.engineHours,
    fuel: specs.fuel,
    cabins: specs.cabins,
    berths: specs.berths,
    heads: specs.heads,
    ce_category: specs.ceCategory,
    location_marina: specs.locationMarina,
    location_country: specs.locationCountry,
  };
}

/**
 * The specifications as they will be stored: texts trimmed (blank is unknown), and the rules the
 * schema cannot state, each as a message the form can list.
 */
export function normaliseSpecs(specs: BoatSpecs, now = new Date()): { specs: BoatSpecs; problems: string[] } {
  const problems: string[] = [];
  const trimmed = (label: string, value: string | null) => {
    const text = value?.trim() ?? '';
    if (text.includes('\u0000')) problems.push(`${label} must not contain NUL characters`);
    return text === '' ? null : text;
  };
  const out: BoatSpecs = {
    ...EMPTY_BOAT_SPECS,
    ...specs,
    builder: trimmed('Builder', specs.builder),
    model: trimmed('Model', specs.model),
    engineMake: trimmed('Engine make', specs.engineMake),
    locationMarina: trimmed('Marina', specs.locationMarina),
  };
  const latestYear = now.getUTCFullYear() + BOAT_LIMITS.yearBuiltAheadMax;
  if (out.yearBuilt !== null && out.yearBuilt > latestYear) problems.push(`Year built must be ${latestYear} or earlier`);
  for (const [label, value] of [
    ['Length overall', out.lengthM],
    ['Beam', out.beamM],
    ['Draft', out.draftM],
  ] as const) {
    if (value !== null && Math.round(value * 100) < 1) problems.push(`${label} must be at least 0.01 m`);
  }
  if (out.condition === 'new' && out.engineHours !== null && out.engineHours > 100) {
    problems.push('Engine hours above 100 mean a used boat: set the condition to used');
  }
  if (out.engineCount === 0 && (out.engineMake !== null || out.enginePowerHp !== null || out.engineHours !== null)) {
    problems.push('A boat without an engine has no engine make, power or hours');
  }
  if (out.beamM !== null && out.lengthM !== null && out.beamM > out.lengthM) problems.push('Beam must not exceed the length overall');
  return { specs: out, problems };
}
