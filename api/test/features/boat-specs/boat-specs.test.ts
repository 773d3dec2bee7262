import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_BOAT_SPECS, type BoatSpecs } from '@boatshop/contract';
import { down, specsFromDescription, up } from '../../../src/db/migrations/2026_11_26_030000_add_boat_specs.js';
import { down as dropFacetCells, up as addFacetCells } from '../../../src/db/migrations/2026_11_28_120000_add_search_facet_cells.js';
import { seedDemoData } from '../../../src/db/seed/seed.js';
import { DEMO_PRODUCTS, demoDescriptionHtml } from '../../../src/db/seed/demo-products.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { createUserWithSession } from '../../helpers/users.js';

const URL = '/api/admin/products';

const SPECS: BoatSpecs = {
  ...EMPTY_BOAT_SPECS,
  builder: '  Hallberg-Rassy ',
  model: '40C',
  yearBuilt: 2019,
  condition: 'used',
  lengthM: 12.39,
  beamM: 3.99,
  draftM: 1.99,
  displacementKg: 11_000,
  hullMaterial: 'fibreglass',
  engineCount: 1,
  engineMake: 'Volvo Penta',
  enginePowerHp: 75,
  engineHours: 850,
  fuel: 'diesel',
  cabins: 3,
  berths: 6,
  heads: 2,
  ceCategory: 'A',
  locationMarina: 'Ellös',
  locationCountry: 'SE',
};

function productInput(specs?: Partial<BoatSpecs>) {
  return {
    name: 'Hallberg-Rassy 40C',
    thumbnailUrl: 'https://images.example.test/hr40.jpg',
    priceCents: 42_500_000,
    descriptionHtml: '<p>A cruiser.</p>',
    category: 'sailing-boats',
    ...(specs ? { specs: { ...SPECS, ...specs } } : {}),
  };
}

describe('boat specifications', () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof createUserWithSession>>;

  beforeAll(async () => {
    app = await buildTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(app);
    admin = await createUserWithSession(app, { roles: ['user', 'admin'] });
  });
  afterAll(() => app?.close());

  it('are saved by the admin, stored in centimetres and read back in metres by shoppers', async () => {
    const created = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput({}) });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    const row = await app.db
      .selectFrom('products')
      .select(['builder', 'length_overall_cm', 'draft_cm'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ builder: 'Hallberg-Rassy', length_overall_cm: 1239, draft_cm: 199 });
    const read = await app.inject({ method: 'GET', url: `/api/products/${id}` });
    expect(read.json().specs).toEqual({ ...SPECS, builder: 'Hallberg-Rassy' });
  });

  it('stay as they are when an update leaves them out, and start unknown when a create does', async () => {
    const bare = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput() });
    expect(bare.json().specs).toEqual(EMPTY_BOAT_SPECS);
    const full = await app.inject({ method: 'POST', url: URL, headers: admin.headers, payload: productInput({}) });
    const updated = await app.inject({
      method: 'PUT',
      url: `${URL}/${full.json().id}`,
      headers: admin.headers,
      payload: { ...productInput(), name: 'Renamed 40C' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().specs.lengthM).toBe(12.39);
  });

  it.each([
    [{ ceCategory: 'E' }, 'ceCategory'],
    [{ locationCountry: 'Sweden' }, 'locationCountry'],
    [{ lengthM: -1 }, 'lengthM'],
    [{ cabins: 2.5 }, 'cabins'],
    [{ yearBuilt: 1700 }, 'yearBuilt'],
  ])('refuses %o with a 400 naming the field', async (bad, field) => {
    const response = await app.inject({
      method: 'POST',
      url: URL,
      headers: admin.headers,
      payload: productInput(bad as Partial<BoatSpecs>),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(field);
    expect(await app.db.selectFrom('products').select('id').execute()).toEqual([]);
  });

  it('lists every rule a schema cannot state at once', async () => {
    const nextYear = new Date().getUTCFullYear() + 2;
    const response = await app.inject({
      method: 'POST',
      url: URL,
      headers: admin.headers,
      payload: productInput({ yearBuilt: nextYear, beamM: 20, engineCount: 0, condition: 'new' }),
    });
    expect(response.statusCode).toBe(400);
    const details = response.json().error.details as string[];
    expect(details).toEqual(
      expect.arrayContaining([
        `Year built must be ${nextYear - 1} or earlier`,
        'Beam must not exceed the length overall',
        'A boat without an engine has no engine make, power or hours',
        'Engine hours above 100 mean a used boat: set the condition to used',
      ]),
    );
  });

  it('are read from the descriptions of boats already listed when the columns arrive', async () => {
    // The shop as it was before the columns: the 26 demo boats with their descriptions only. The
    // later migration whose triggers read the columns is taken back first, and comes back last.
    await dropFacetCells(app.db);
    await down(app.db);
    const now = Date.now();
    await app.db
      .insertInto('products')
      .values(
        DEMO_PRODUCTS.map((product, index) => ({
          name: product.name,
          thumbnail_url: `/api/images/${product.slug}.svg`,
          price_cents: product.priceEur * 100,
          description_html: demoDescriptionHtml(product),
          category: product.category,
          created_at: new Date(now - index * 1000),
        })) as never,
      )
      .execute();
    await up(app.db);
    await addFacetCells(app.db);

    const rows = await app.db
      .selectFrom('products')
      .select(['name', 'builder', 'model', 'year_built', 'condition', 'length_overall_cm', 'draft_cm', 'displacement_kg', 'hull_material'])
      .select(['engine_count', 'engine_make', 'engine_power_hp', 'fuel', 'cabins', 'berths'])
      .execute();
    expect(rows).toHaveLength(26);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('Halvard 31 Performance')).toMatchObject({
      builder: 'Halvard',
      model: '31 Performance',
      year_built: null,
      condition: 'new',
      length_overall_cm: 945,
      draft_cm: 195,
      displacement_kg: 3400,
      engine_count: 1,
      engine_make: 'Yanmar',
      engine_power_hp: 15,
      fuel: 'diesel',
    });
    expect(byName.get('Skagen Polar 45')).toMatchObject({ hull_material: 'aluminium', draft_cm: 280, cabins: 3 });
    expect(byName.get('Aldren 22 Daysailer')).toMatchObject({ fuel: 'petrol', engine_power_hp: 6, berths: 2, engine_make: null });
    expect(byName.get('Nordvik 27 Classic')).toMatchObject({ year_built: 1998, condition: 'used', engine_make: 'Volvo Penta' });
    expect(byName.get('Serenissima 108')).toMatchObject({ fuel: 'hybrid', engine_count: 2, engine_power_hp: 2400 });
    expect(byName.get('Aquila 40m Superyacht')).toMatchObject({
      builder: 'Aquila',
      model: '40m Superyacht',
      length_overall_cm: 4000,
      cabins: 6,
    });
    // Every demo boat has its length, builder and condition.
    expect(rows.filter((row) => row.length_overall_cm === null || row.builder === null || row.condition === null)).toEqual([]);
  });

  it('match between a seeded shop and a migrated one', async () => {
    await seedDemoData(app.db);
    const seeded = await app.db
      .selectFrom('products')
      .select(['name', 'description_html', 'length_overall_cm', 'engine_make', 'location_country'])
      .execute();
    expect(seeded).toHaveLength(26);
    for (const row of seeded) {
      const derived = specsFromDescription(row.name, row.description_html);
      expect(row.length_overall_cm).toBe(derived.length_overall_cm);
      expect(row.engine_make).toBe(derived.engine_make ?? null);
      expect(row.location_country).toMatch(/^[A-Z]{2}$/);
    }
  });
});
