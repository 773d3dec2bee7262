import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

// A boat's specifications become columns of `products` (docs/adr/0040): one row per boat, typed,
// checked by the database, indexable for the search's ranges. Lengths are whole centimetres so
// both databases hand back exact integers. Every column may be null: unknown until the admin says.

const COLUMNS = [
  ['builder', 'text', sql`char_length(builder) between 1 and 120`],
  ['model', 'text', sql`char_length(model) between 1 and 120`],
  ['year_built', 'smallint', sql`year_built between 1850 and 2200`],
  ['condition', 'text', sql`condition in ('new', 'used')`],
  ['length_overall_cm', 'integer', sql`length_overall_cm between 1 and 20000`],
  ['beam_cm', 'integer', sql`beam_cm between 1 and 6000`],
  ['draft_cm', 'integer', sql`draft_cm between 1 and 2000`],
  ['displacement_kg', 'integer', sql`displacement_kg between 1 and 20000000`],
  ['hull_material', 'text', sql`hull_material in ('fibreglass', 'composite', 'carbon', 'aluminium', 'steel', 'wood')`],
  ['engine_count', 'smallint', sql`engine_count between 0 and 8`],
  ['engine_make', 'text', sql`char_length(engine_make) between 1 and 120`],
  ['engine_power_hp', 'integer', sql`engine_power_hp between 1 and 50000`],
  ['engine_hours', 'integer', sql`engine_hours between 0 and 200000`],
  ['fuel', 'text', sql`fuel in ('diesel', 'petrol', 'electric', 'hybrid')`],
  ['cabins', 'smallint', sql`cabins between 0 and 100`],
  ['berths', 'smallint', sql`berths between 0 and 100`],
  ['heads', 'smallint', sql`heads between 0 and 100`],
  ['ce_category', 'text', sql`ce_category in ('A', 'B', 'C', 'D')`],
  ['location_marina', 'text', sql`char_length(location_marina) between 1 and 120`],
  ['location_country', 'text', sql`location_country ~ '^[A-Z]{2}$'`],
] as const;

type Specs = Record<string, string | number | null>;

const DIESEL_MAKES = ['Volvo Penta', 'Yanmar', 'Nanni', 'Steyr', 'Cummins', 'MAN', 'MTU', 'Caterpillar', 'John Deere'];

function decode(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "6.70 m" → 670, "1.10–2.80 m" → 280 (the deepest): the largest figure, in centimetres. */
function centimetres(value: string | undefined): number | null {
  const figures = [...(value ?? '').matchAll(/(\d+(?:\.\d+)?)\s*(?=[–-]|\s*m\b)/g)].map((m) => Number(m[1]));
  return figures.length > 0 ? Math.round(Math.max(...figures) * 100) : null;
}

/** "1,050 kg" → 1050; "3 + crew" → 3: the first whole number. */
function firstNumber(value: string | undefined): number | null {
  const match = /\d[\d,]*/.exec(value ?? '');
  return match ? Number(match[0].replaceAll(',', '')) : null;
}

function engine(value: string | undefined): Specs {
  if (!value) return {};
  const count = /^(\d+)\s*×\s*/.exec(value.replace(/^.*?,\s*(?=\d+\s*×)/, ''));
  const rest = value.replace(/^.*?,\s*(?=\d+\s*×)/, '').replace(/^\d+\s*×\s*/, '');
  const power = /([\d,]+)\s*hp/.exec(rest);
  const make = DIESEL_MAKES.find((name) => rest.startsWith(name)) ?? null;
  const fuel = /hybrid/i.test(value)
    ? 'hybrid'
    : /outboard/i.test(value)
      ? 'petrol'
      : make !== null || /diesel/i.test(value)
        ? 'diesel'
        : null;
  return {
    engine_count: count ? Number(count[1]) : 1,
    engine_make: make,
    engine_power_hp: power ? Number(power[1]!.replaceAll(',', '')) : null,
    fuel,
  };
}

function hullMaterial(text: string): string | null {
  if (/aluminium hull/i.test(text)) return 'aluminium';
  if (/steel hull/i.test(text)) return 'steel';
  if (/carbon construction|carbon hull/i.test(text)) return 'carbon';
  if (/\bcomposite\b/i.test(text)) return 'composite';
  if (/\b(grp|fibreglass|fiberglass)\b/i.test(text)) return 'fibreglass';
  return null;
}

/**
 * What a product's description says of its specifications: the "<strong>Label:</strong> value"
 * lines of its list, the builder and model from its name ("Halvard 31 Performance": the words
 * before the first figure are the builder), the hull material from its text. Exported for the
 * test that checks it against the demo catalogue.
 */
export function specsFromDescription(name: string, descriptionHtml: string): Specs {
  const labelled = new Map<string, string>();
  for (const match of descriptionHtml.matchAll(/<li>\s*<strong>([^<:]+):?<\/strong>:?([\s\S]*?)<\/li>/g)) {
    labelled.set(decode(match[1]!).toLowerCase(), decode(match[2]!));
  }
  const nameParts = /^(\D+?)\s+(\d[\s\S]*)$/.exec(name.trim());
  const year = firstNumber(labelled.get('year built'));
  return {
    builder: nameParts ? nameParts[1]! : null,
    model: nameParts ? nameParts[2]! : null,
    year_built: year,
    // A listing with a build year is one hull (brokerage); without, a model built to order.
    condition: year === null ? 'new' : 'used',
    length_overall_cm: centimetres(labelled.get('length overall')),
    beam_cm: centimetres(labelled.get('beam')),
    draft_cm: centimetres(labelled.get('draft')),
    displacement_kg: firstNumber(labelled.get('displacement')),
    hull_material: hullMaterial(decode(descriptionHtml)),
    ...engine(labelled.get('engine') ?? labelled.get('engines') ?? labelled.get('propulsion')),
    cabins: firstNumber(labelled.get('cabins')),
    berths: firstNumber(labelled.get('berths')),
  };
}

export async function up(db: Kysely<any>): Promise<void> {
  const additions = COLUMNS.map(([name, type, check]) => sql`add column ${sql.ref(name)} ${sql.raw(type)} check (${check})`);
  await sql`alter table products ${sql.join(additions)}`.execute(db);

  // The search's range facets and sorts: ordered by the figure, then newest, so a page is an index range.
  await sql`create index products_length_idx on products (length_overall_cm, created_at desc, id desc)`.execute(db);
  await sql`create index products_year_idx on products (year_built, created_at desc, id desc)`.execute(db);
  await sql`create index products_price_idx on products (price_cents, created_at desc, id desc)`.execute(db);

  // The boats already listed get what their descriptions say; anything they do not say stays unknown.
  const rows = await db.selectFrom('products').select(['id', 'name', 'description_html']).execute();
  for (const row of rows as { id: string; name: string; description_html: string }[]) {
    const specs = specsFromDescription(row.name, row.description_html);
    const known = Object.fromEntries(Object.entries(specs).filter(([, value]) => value !== null && value !== undefined));
    if (Object.keys(known).length > 0) await db.updateTable('products').set(known).where('id', '=', row.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index products_price_idx`.execute(db);
  await sql`drop index products_year_idx`.execute(db);
  await sql`drop index products_length_idx`.execute(db);
  await sql`alter table products ${sql.join(COLUMNS.map(([name]) => sql`drop column ${sql.ref(name)}`))}`.execute(db);
}
