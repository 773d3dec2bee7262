// The search bench's catalogue: `count` boats with the spread of a real brokerage listing (few
// builders with many boats and a long tail, most boats used and lying in a few Mediterranean
// and North Sea countries, lengths and prices skewed towards small boats, one in eight sold),
// drawn from a seeded generator so every run measures the same rows. Inserted in batches
// through unnest(): about a minute for 500,000 rows on the 2-core machines.
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';

/** Mulberry32: small, fast, seeded; the same boats on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

/** A value by weight: the weights need not add up to one. */
function weighted<T>(random: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let pick = random() * total;
  for (const [value, weight] of entries) {
    pick -= weight;
    if (pick <= 0) return value;
  }
  return entries.at(-1)![0];
}

/** A normally distributed value (Box–Muller). */
function normal(random: Random, mean: number, deviation: number): number {
  return mean + deviation * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

interface Builder {
  name: string;
  category: 'sailing-boats' | 'yachts';
  /** typical length overall, metres */
  metres: number;
  weight: number;
}

const SAILING = ['Bavaria', 'Beneteau', 'Jeanneau', 'Dufour', 'Hanse', 'Hallberg-Rassy', 'Najad', 'Dehler', 'X-Yachts', 'Elan'];
const SAILING_TAIL = ['Contest', 'Malo', 'Grand Soleil', 'Moody', 'Oyster', 'Swan', 'J/Boats', 'Sunbeam', 'Arcona', 'Faurby'];
const YACHTS = ['Princess', 'Sunseeker', 'Azimut', 'Ferretti', 'Fairline', 'Prestige', 'Galeon', 'Sealine', 'Linssen', 'Riva'];
const YACHTS_TAIL = ['Pershing', 'Absolute', 'Sanlorenzo', 'Benetti', 'Nimbus', 'Greenline', 'Pearl', 'Bavaria Motor', 'Cranchi', 'Windy'];

/** Zipf-like weights: the tenth builder lists about a seventh of what the first does. */
function builders(): Builder[] {
  const list: Builder[] = [];
  const add = (names: string[], category: Builder['category'], offset: number, base: number, spread: number) =>
    names.forEach((name, index) =>
      list.push({ name, category, metres: base + ((index * 7) % 10) * spread, weight: 1 / (index + offset + 1) ** 0.85 }),
    );
  add(SAILING, 'sailing-boats', 0, 9, 1.2);
  add(SAILING_TAIL, 'sailing-boats', 10, 11, 1.6);
  add(YACHTS, 'yachts', 0, 11, 2.2);
  add(YACHTS_TAIL, 'yachts', 10, 14, 3.5);
  return list;
}

const COUNTRIES = [
  ['DE', 16],
  ['FR', 15],
  ['IT', 14],
  ['ES', 12],
  ['HR', 11],
  ['GR', 8],
  ['NL', 6],
  ['GB', 5],
  ['SE', 3],
  ['DK', 3],
  ['PT', 2],
  ['TR', 2],
  ['MT', 1.5],
  ['NO', 1],
  ['PL', 0.5],
] as const;

const FEATURES = ['teak deck', 'bow thruster', 'bluewater ready', 'generator', 'air conditioning', 'new sails', 'solar panels'];

export interface BenchBoat {
  name: string;
  category: string;
  priceCents: number;
  builder: string;
  model: string;
  yearBuilt: number;
  condition: 'new' | 'used';
  lengthCm: number;
  cabins: number;
  country: string;
  vatTreatment: string;
  stockOnHand: number;
  createdAt: Date;
  description: string;
}

/** Boat number `index` of the catalogue seeded with `seed`: depends on nothing else. */
export function* benchBoats(count: number, seed = 2026): Generator<BenchBoat> {
  const random = generator(seed);
  const makers = builders();
  const byWeight = makers.map((builder) => [builder, builder.weight] as const);
  const newest = Date.UTC(2026, 10, 1);
  const threeYears = 3 * 365 * 24 * 3600 * 1000;
  for (let index = 0; index < count; index += 1) {
    const builder = weighted(random, byWeight);
    const isNew = random() < 0.14;
    const age = isNew ? 0 : Math.min(55, Math.floor(-Math.log(1 - random()) * 11));
    const yearBuilt = isNew ? 2026 - Math.floor(random() * 2) : 2025 - age;
    const metres = Math.min(builder.category === 'yachts' ? 60 : 30, Math.max(5.5, normal(random, builder.metres, builder.metres * 0.22)));
    const lengthCm = Math.round(metres * 10) * 10;
    const newPrice = 9000 * metres ** 2.6 * (builder.category === 'yachts' ? 1.6 : 1);
    const priceCents = Math.max(500_000, Math.round((newPrice * 0.93 ** age * (0.85 + random() * 0.3)) / 100) * 10_000);
    const model = `${Math.round(metres * 3.28)}${builder.category === 'yachts' ? ' Fly' : ''}`;
    const cabins = Math.max(0, Math.min(8, Math.round(metres / 4 - 0.5 + normal(random, 0, 0.6))));
    const vatTreatment = isNew
      ? 'new_boat'
      : weighted(random, [
          ['vat_paid_own_stock', 50],
          ['margin_scheme', 35],
          ['not_vat_paid', 15],
        ] as const);
    const feature = FEATURES[Math.floor(random() * FEATURES.length)]!;
    yield {
      name: `${builder.name} ${model}`,
      category: builder.category,
      priceCents,
      builder: builder.name,
      model,
      yearBuilt,
      condition: isNew ? 'new' : 'used',
      lengthCm,
      cabins,
      country: weighted(random, COUNTRIES),
      vatTreatment,
      stockOnHand: random() < 0.12 ? 0 : 1,
      createdAt: new Date(newest - Math.floor(random() * threeYears)),
      description: `<p>${builder.name} ${model} built in ${yearBuilt}, ${cabins} cabins, ${feature}.</p>`,
    };
  }
}

const BATCH = 5000;

/** Replaces the catalogue with `count` bench boats, unless it already holds exactly them (a marker comment on the table). */
export async function seedSearchCatalogue(db: Db, count: number): Promise<'seeded' | 'kept'> {
  const marker = `bench search catalogue v1: ${count} boats`;
  const { rows } = await sql<{ comment: string | null }>`select obj_description('products'::regclass, 'pg_class') as comment`.execute(db);
  if (rows[0]?.comment === marker) return 'kept';
  await sql`truncate table products cascade`.execute(db);
  let batch: BenchBoat[] = [];
  const flush = async () => {
    const column = <T>(pick: (boat: BenchBoat) => T) => batch.map(pick);
    await sql`
      insert into products (name, thumbnail_url, price_cents, description_html, category, created_at, builder, model,
                            year_built, condition, length_overall_cm, cabins, location_country, vat_treatment, stock_on_hand)
      select name, '/api/images/aldren-22-daysailer.svg', price, description, category, created_at, builder, model,
             year, condition, length_cm, cabins, country, vat, stock
      from unnest(${column((b) => b.name)}::text[], ${column((b) => b.priceCents)}::int8[], ${column((b) => b.description)}::text[],
                  ${column((b) => b.category)}::text[], ${column((b) => b.createdAt.toISOString())}::timestamptz[],
                  ${column((b) => b.builder)}::text[], ${column((b) => b.model)}::text[], ${column((b) => b.yearBuilt)}::int2[],
                  ${column((b) => b.condition)}::text[], ${column((b) => b.lengthCm)}::int4[], ${column((b) => b.cabins)}::int2[],
                  ${column((b) => b.country)}::text[], ${column((b) => b.vatTreatment)}::text[], ${column((b) => b.stockOnHand)}::int4[])
        as boat(name, price, description, category, created_at, builder, model, year, condition, length_cm, cabins, country, vat, stock)
    `.execute(db);
    batch = [];
  };
  for (const boat of benchBoats(count)) {
    batch.push(boat);
    if (batch.length === BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  await sql`vacuum analyze products`.execute(db);
  await sql.raw(`comment on table products is '${marker}'`).execute(db);
  return 'seeded';
}
