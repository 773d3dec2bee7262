// A boat's specifications as typed data: the values the admin form checks, the search filters on
// and the product page converts. Plain data (no TypeBox), re-exported by ./constants.ts.
import { COUNTRY_NAMES } from './country-names.js';
import { englishNumber } from './number-text.js';

export const BOAT_CONDITIONS = ['new', 'used'] as const;
export type BoatCondition = (typeof BOAT_CONDITIONS)[number];

export const HULL_MATERIALS = ['fibreglass', 'composite', 'carbon', 'aluminium', 'steel', 'wood'] as const;
export type HullMaterial = (typeof HULL_MATERIALS)[number];

export const FUEL_TYPES = ['diesel', 'petrol', 'electric', 'hybrid'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];

/** CE design categories of the Recreational Craft Directive: A ocean, B offshore, C inshore, D sheltered waters. */
export const CE_CATEGORIES = ['A', 'B', 'C', 'D'] as const;
export type CeCategory = (typeof CE_CATEGORIES)[number];

/** Bounds a boat's figures must fall within (metric; lengths in metres, displacement in kg). */
export const BOAT_LIMITS = {
  yearBuiltMin: 1850,
  /** a boat may be listed the year before it is launched */
  yearBuiltAheadMax: 1,
  lengthMaxM: 200,
  beamMaxM: 60,
  draftMaxM: 20,
  displacementMaxKg: 20_000_000,
  engineCountMax: 8,
  enginePowerMaxHp: 50_000,
  engineHoursMax: 200_000,
  roomsMax: 100,
  textMaxLength: 120,
} as const;

export const BOAT_CONDITION_NAMES: Record<BoatCondition, string> = { new: 'New', used: 'Used' };
export const HULL_MATERIAL_NAMES: Record<HullMaterial, string> = {
  fibreglass: 'Fibreglass (GRP)',
  composite: 'Composite',
  carbon: 'Carbon',
  aluminium: 'Aluminium',
  steel: 'Steel',
  wood: 'Wood',
};
export const FUEL_TYPE_NAMES: Record<FuelType, string> = { diesel: 'Diesel', petrol: 'Petrol', electric: 'Electric', hybrid: 'Hybrid' };

// ------------------------------------------------------------------------------------------
// Showing the specifications: one list of rows for the product page, the compare table and the
// page head's structured data, in metric or imperial units.

export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

/** The figures of BoatSpecs (metric, null = unknown), structurally, so this module needs no schema. */
export interface BoatSpecValues {
  builder: string | null;
  model: string | null;
  yearBuilt: number | null;
  condition: BoatCondition | null;
  lengthM: number | null;
  beamM: number | null;
  draftM: number | null;
  displacementKg: number | null;
  hullMaterial: HullMaterial | null;
  engineCount: number | null;
  engineMake: string | null;
  enginePowerHp: number | null;
  engineHours: number | null;
  fuel: FuelType | null;
  cabins: number | null;
  berths: number | null;
  heads: number | null;
  ceCategory: CeCategory | null;
  locationMarina: string | null;
  locationCountry: string | null;
}

export interface BoatSpecRow {
  key: string;
  label: string;
  /** as shown, in the units asked for */
  text: string;
}

const FEET_PER_METRE = 3.280839895;
const POUNDS_PER_KG = 2.2046226218;

/** Metres as shown: "12.20 m", or in feet "40.0 ft". */
export function formatLength(metres: number, units: UnitSystem): string {
  return units === 'metric' ? `${englishNumber(metres, 2, 2)} m` : `${englishNumber(metres * FEET_PER_METRE, 1, 1)} ft`;
}

export function formatWeight(kg: number, units: UnitSystem): string {
  return units === 'metric' ? `${englishNumber(kg, 0, 0)} kg` : `${englishNumber(kg * POUNDS_PER_KG, 0, 0)} lb`;
}

export const CE_CATEGORY_NAMES: Record<CeCategory, string> = {
  A: 'A (ocean)',
  B: 'B (offshore)',
  C: 'C (inshore)',
  D: 'D (sheltered waters)',
};

/**
 * An ISO 3166-1 alpha-2 code as its English name ("SE" → "Sweden"); the code itself where unknown.
 * From a table of Intl.DisplayNames' names rather than Intl itself, which loads the browser's
 * locale data in one long task (ADR 0086), and may name a country differently from the server's.
 */
export function countryName(code: string): string {
  if (Object.hasOwn(COUNTRY_NAMES, code)) return COUNTRY_NAMES[code]!;
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

function engineText(specs: BoatSpecValues): string | null {
  if (specs.engineCount === 0) return 'None';
  const one = [specs.engineMake, specs.enginePowerHp === null ? null : `${englishNumber(specs.enginePowerHp, 0, 0)} hp`]
    .filter(Boolean)
    .join(' ');
  if (!one) return null;
  return specs.engineCount !== null && specs.engineCount > 1 ? `${specs.engineCount} × ${one}` : one;
}

/** The known specifications as labelled rows, in a fixed order; unknown ones are left out. */
export function boatSpecRows(specs: BoatSpecValues, units: UnitSystem): BoatSpecRow[] {
  const rows: [string, string, string | null][] = [
    ['builder', 'Builder', specs.builder],
    ['model', 'Model', specs.model],
    ['yearBuilt', 'Year built', specs.yearBuilt === null ? null : String(specs.yearBuilt)],
    ['condition', 'Condition', specs.condition && BOAT_CONDITION_NAMES[specs.condition]],
    ['lengthM', 'Length overall', specs.lengthM === null ? null : formatLength(specs.lengthM, units)],
    ['beamM', 'Beam', specs.beamM === null ? null : formatLength(specs.beamM, units)],
    ['draftM', 'Draft', specs.draftM === null ? null : formatLength(specs.draftM, units)],
    ['displacementKg', 'Displacement', specs.displacementKg === null ? null : formatWeight(specs.displacementKg, units)],
    ['hullMaterial', 'Hull material', specs.hullMaterial && HULL_MATERIAL_NAMES[specs.hullMaterial]],
    ['engines', specs.engineCount !== null && specs.engineCount > 1 ? 'Engines' : 'Engine', engineText(specs)],
    ['engineHours', 'Engine hours', specs.engineHours === null ? null : englishNumber(specs.engineHours, 0, 0)],
    ['fuel', 'Fuel', specs.fuel && FUEL_TYPE_NAMES[specs.fuel]],
    ['cabins', 'Cabins', specs.cabins === null ? null : String(specs.cabins)],
    ['berths', 'Berths', specs.berths === null ? null : String(specs.berths)],
    ['heads', 'Heads', specs.heads === null ? null : String(specs.heads)],
    ['ceCategory', 'CE design category', specs.ceCategory && CE_CATEGORY_NAMES[specs.ceCategory]],
    [
      'location',
      'Location',
      [specs.locationMarina, specs.locationCountry && countryName(specs.locationCountry)].filter(Boolean).join(', ') || null,
    ],
  ];
  return rows.filter((row): row is [string, string, string] => row[2] !== null).map(([key, label, text]) => ({ key, label, text }));
}

/** Every specification unknown: a new product's until the admin fills them in. */
export const EMPTY_BOAT_SPECS: BoatSpecValues = {
  builder: null,
  model: null,
  yearBuilt: null,
  condition: null,
  lengthM: null,
  beamM: null,
  draftM: null,
  displacementKg: null,
  hullMaterial: null,
  engineCount: null,
  engineMake: null,
  enginePowerHp: null,
  engineHours: null,
  fuel: null,
  cabins: null,
  berths: null,
  heads: null,
  ceCategory: null,
  locationMarina: null,
  locationCountry: null,
};

// ------------------------------------------------------------------------------------------
// Faceted search (GET /api/products/search)

export const SEARCH_SORTS = ['newest', 'price-asc', 'price-desc', 'length', 'year'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const SEARCH_SORT_NAMES: Record<SearchSort, string> = {
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  length: 'Length: longest first',
  year: 'Year built: newest first',
};
/**
 * The search page's facet choices as address parameters (/search/:category?builder=…), in the
 * order the page writes them. Prices are whole euros there; `vatPaid=1` and the list facets
 * comma-separated. Text (`q`), "Hide sold boats" (`available=1`) and `cursor` are the list's own.
 */
export const SEARCH_URL_FACETS = [
  'builder',
  'condition',
  'country',
  'priceMin',
  'priceMax',
  'lengthMin',
  'lengthMax',
  'yearMin',
  'yearMax',
  'cabinsMin',
  'vatPaid',
  'sort',
] as const;
export type SearchUrlFacet = (typeof SEARCH_URL_FACETS)[number];

/** Builders or countries one search may pick at once. */
export const SEARCH_MAX_CHOICES = 20;
/** Builder values a facet lists at most (the most frequent first). */
export const SEARCH_FACET_LIMIT = 30;
