import type { BoatSpecs } from '@boatshop/contract';
import { BOAT_LIMITS, type BoatCondition, type CeCategory, type FuelType, type HullMaterial } from '@boatshop/contract/constants';

// The specification fields as the admin types them (text), and their check before sending. The
// API checks again and has the last word; these messages let the admin fix everything at once.

export type BoatSpecsDraft = Record<keyof BoatSpecs, string>;

const NUMBER_FIELDS = {
  yearBuilt: { label: 'Year built', whole: true, min: BOAT_LIMITS.yearBuiltMin, max: 2200 },
  lengthM: { label: 'Length overall (m)', whole: false, min: 0.01, max: BOAT_LIMITS.lengthMaxM },
  beamM: { label: 'Beam (m)', whole: false, min: 0.01, max: BOAT_LIMITS.beamMaxM },
  draftM: { label: 'Draft (m)', whole: false, min: 0.01, max: BOAT_LIMITS.draftMaxM },
  displacementKg: { label: 'Displacement (kg)', whole: true, min: 1, max: BOAT_LIMITS.displacementMaxKg },
  engineCount: { label: 'Number of engines', whole: true, min: 0, max: BOAT_LIMITS.engineCountMax },
  enginePowerHp: { label: 'Power per engine (hp)', whole: true, min: 1, max: BOAT_LIMITS.enginePowerMaxHp },
  engineHours: { label: 'Engine hours', whole: true, min: 0, max: BOAT_LIMITS.engineHoursMax },
  cabins: { label: 'Cabins', whole: true, min: 0, max: BOAT_LIMITS.roomsMax },
  berths: { label: 'Berths', whole: true, min: 0, max: BOAT_LIMITS.roomsMax },
  heads: { label: 'Heads', whole: true, min: 0, max: BOAT_LIMITS.roomsMax },
} as const satisfies Partial<Record<keyof BoatSpecs, { label: string; whole: boolean; min: number; max: number }>>;

type NumberField = keyof typeof NUMBER_FIELDS;
export const SPEC_NUMBER_FIELDS = NUMBER_FIELDS;

export function draftFromSpecs(specs: BoatSpecs | undefined): BoatSpecsDraft {
  const draft = {} as BoatSpecsDraft;
  const source = specs ?? ({} as Partial<BoatSpecs>);
  for (const key of SPEC_KEYS) {
    const value = source[key];
    draft[key] = value === null || value === undefined ? '' : String(value);
  }
  return draft;
}

export const SPEC_KEYS: (keyof BoatSpecs)[] = [
  'builder',
  'model',
  'yearBuilt',
  'condition',
  'lengthM',
  'beamM',
  'draftM',
  'displacementKg',
  'hullMaterial',
  'engineCount',
  'engineMake',
  'enginePowerHp',
  'engineHours',
  'fuel',
  'cabins',
  'berths',
  'heads',
  'ceCategory',
  'locationMarina',
  'locationCountry',
];

export type SpecsParse = { ok: true; specs: BoatSpecs } | { ok: false; problems: string[] };

function parseNumber(key: NumberField, text: string, problems: string[]): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const rule = NUMBER_FIELDS[key];
  const value = Number(trimmed);
  const shape = rule.whole ? /^\d+$/ : /^\d+(\.\d{1,2})?$/;
  if (!shape.test(trimmed) || value < rule.min || value > rule.max) {
    problems.push(
      `${rule.label} must be ${rule.whole ? 'a whole number' : 'a number with up to 2 decimals'} from ${rule.min} to ${rule.max}, or empty`,
    );
    return null;
  }
  return value;
}

export function parseSpecsDraft(draft: BoatSpecsDraft): SpecsParse {
  const problems: string[] = [];
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  const num = (key: NumberField) => parseNumber(key, draft[key], problems);
  const country = text(draft.locationCountry)?.toUpperCase() ?? null;
  if (country !== null && !/^[A-Z]{2}$/.test(country)) problems.push('Country must be a two-letter code such as FR or GB, or empty');
  const specs: BoatSpecs = {
    builder: text(draft.builder),
    model: text(draft.model),
    yearBuilt: num('yearBuilt'),
    condition: (text(draft.condition) as BoatCondition | null) ?? null,
    lengthM: num('lengthM'),
    beamM: num('beamM'),
    draftM: num('draftM'),
    displacementKg: num('displacementKg'),
    hullMaterial: (text(draft.hullMaterial) as HullMaterial | null) ?? null,
    engineCount: num('engineCount'),
    engineMake: text(draft.engineMake),
    enginePowerHp: num('enginePowerHp'),
    engineHours: num('engineHours'),
    fuel: (text(draft.fuel) as FuelType | null) ?? null,
    cabins: num('cabins'),
    berths: num('berths'),
    heads: num('heads'),
    ceCategory: (text(draft.ceCategory) as CeCategory | null) ?? null,
    locationMarina: text(draft.locationMarina),
    locationCountry: country,
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, specs };
}
