import { Type, type Static } from '@sinclair/typebox';
import {
  BOAT_CONDITIONS,
  BOAT_LIMITS,
  CE_CATEGORIES,
  FUEL_TYPES,
  HULL_MATERIALS,
  type BoatCondition,
  type CeCategory,
  type FuelType,
  type HullMaterial,
} from '../boat-specs.js';

// A boat's specifications, metric, every one may be unknown (null). One type list rather than
// anyOf: with Fastify's type coercion an anyOf's number branch would turn null into 0.

function nullable<T>(type: 'integer' | 'number' | 'string', options: Record<string, unknown>) {
  return Type.Unsafe<T | null>({ type: [type, 'null'], ...options });
}
function nullableEnum<T extends string>(values: readonly T[], description: string) {
  return Type.Unsafe<T | null>({ type: ['string', 'null'], enum: [...values, null], description });
}
const text = (description: string) => nullable<string>('string', { maxLength: BOAT_LIMITS.textMaxLength, description });
const rooms = (description: string) => nullable<number>('integer', { minimum: 0, maximum: BOAT_LIMITS.roomsMax, description });
const metres = (max: number, description: string) => nullable<number>('number', { exclusiveMinimum: 0, maximum: max, description });

export const BoatSpecsSchema = Type.Object(
  {
    builder: text('the yard or brand, e.g. "Halvard"'),
    model: text('e.g. "31 Performance"'),
    yearBuilt: nullable<number>('integer', { minimum: BOAT_LIMITS.yearBuiltMin, maximum: 2200, description: 'year of launch' }),
    condition: nullableEnum<BoatCondition>(BOAT_CONDITIONS, 'new (built to order or unused) or used'),
    lengthM: metres(BOAT_LIMITS.lengthMaxM, 'length overall in metres, to the centimetre'),
    beamM: metres(BOAT_LIMITS.beamMaxM, 'beam in metres'),
    draftM: metres(BOAT_LIMITS.draftMaxM, 'deepest draft in metres'),
    displacementKg: nullable<number>('integer', { minimum: 1, maximum: BOAT_LIMITS.displacementMaxKg, description: 'kilograms' }),
    hullMaterial: nullableEnum<HullMaterial>(HULL_MATERIALS, 'main hull material'),
    engineCount: nullable<number>('integer', { minimum: 0, maximum: BOAT_LIMITS.engineCountMax, description: '0: no engine' }),
    engineMake: text('e.g. "Volvo Penta"'),
    enginePowerHp: nullable<number>('integer', { minimum: 1, maximum: BOAT_LIMITS.enginePowerMaxHp, description: 'per engine, hp' }),
    engineHours: nullable<number>('integer', {
      minimum: 0,
      maximum: BOAT_LIMITS.engineHoursMax,
      description: 'running hours (used boats)',
    }),
    fuel: nullableEnum<FuelType>(FUEL_TYPES, 'fuel of the engines'),
    cabins: rooms('guest cabins'),
    berths: rooms('sleeping berths'),
    heads: rooms('toilets / bathrooms'),
    ceCategory: nullableEnum<CeCategory>(CE_CATEGORIES, 'CE design category: A ocean, B offshore, C inshore, D sheltered waters'),
    locationMarina: text('where the boat lies'),
    locationCountry: nullable<string>('string', { pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code' }),
  },
  { title: 'BoatSpecs', additionalProperties: false },
);
export type BoatSpecs = Static<typeof BoatSpecsSchema>;
