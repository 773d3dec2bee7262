import type { Category } from '@boatshop/contract';

// The demo catalogue: invented yards and models, priced and specified like the real market.
// Each product's picture is drawn by scripts/generate-images.ts into public/images/<slug>.svg.

export interface DemoProduct {
  slug: string;
  name: string;
  category: Category;
  priceEur: number;
  tagline: string;
  intro: string;
  highlights: string[];
  specs: [label: string, value: string][];
  /**
   * Set only for a used boat (a brokerage listing: one hull, built that year); new models have
   * none, since they are built to order. Shown in the specifications; it also decides the seeded
   * stock (demoStock).
   */
  yearBuilt?: number;
}

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    slug: 'aldren-22-daysailer',
    name: 'Aldren 22 Daysailer',
    category: 'sailing-boats',
    priceEur: 21_900,
    tagline: 'An afternoon on the water, no crew required',
    intro:
      'The Aldren 22 is a light, forgiving daysailer with a deep self-draining cockpit for six. A lifting keel lets her slip onto a road trailer and into shallow coves.',
    highlights: ['Lifting keel: 0.45 m to 1.35 m draft', 'All lines led aft for single-handed sailing', 'Trailerable behind a family car'],
    specs: [
      ['Length overall', '6.70 m'],
      ['Beam', '2.45 m'],
      ['Displacement', '1,050 kg'],
      ['Sail area', '24 m²'],
      ['Engine', '6 hp outboard'],
      ['Berths', '2'],
    ],
  },
  {
    slug: 'marlow-wren-24',
    name: 'Marlow Wren 24',
    category: 'sailing-boats',
    priceEur: 27_500,
    tagline: 'A pocket cruiser with a proper cabin',
    intro: 'Gaff-rigged lines above, modern composite below. The Wren 24 sleeps four for a weekend and turns heads in every harbour.',
    highlights: ['Tan-bark gaff mainsail and roller-furling jib', 'Teak-laid cockpit seats', 'Galley with two-burner stove and sink'],
    specs: [
      ['Length overall', '7.30 m'],
      ['Beam', '2.50 m'],
      ['Draft', '0.75 m'],
      ['Displacement', '1,900 kg'],
      ['Engine', '10 hp inboard diesel'],
      ['Berths', '4'],
    ],
  },
  {
    slug: 'nordvik-27-classic',
    name: 'Nordvik 27 Classic',
    yearBuilt: 1998,
    category: 'sailing-boats',
    priceEur: 38_900,
    tagline: 'Scandinavian build quality in a compact hull',
    intro:
      'A long-keeled coastal cruiser that tracks like a train and takes the short North Sea chop in her stride. Solid mahogany joinery throughout.',
    highlights: ['Encapsulated long keel', 'Spray hood and cockpit tent', 'Diesel heater for the shoulder seasons'],
    specs: [
      ['Length overall', '8.20 m'],
      ['Beam', '2.70 m'],
      ['Draft', '1.25 m'],
      ['Displacement', '3,200 kg'],
      ['Engine', 'Volvo Penta 13 hp'],
      ['Berths', '4'],
    ],
  },
  {
    slug: 'solent-breeze-30',
    name: 'Solent Breeze 30',
    category: 'sailing-boats',
    priceEur: 64_500,
    tagline: 'The family cruiser that still wins on Wednesday nights',
    intro:
      'Twin rudders, a wide transom and a bright saloon make the Solent Breeze 30 easy to live with, while her fractional rig keeps club racers honest.',
    highlights: ['Twin wheels and twin rudders', 'Drop-down swim platform', 'Two double cabins and a separate heads'],
    specs: [
      ['Length overall', '9.10 m'],
      ['Beam', '3.25 m'],
      ['Draft', '1.75 m'],
      ['Displacement', '4,300 kg'],
      ['Engine', 'Yanmar 21 hp saildrive'],
      ['Cabins', '2'],
    ],
  },
  {
    slug: 'halvard-31-performance',
    name: 'Halvard 31 Performance',
    category: 'sailing-boats',
    priceEur: 89_000,
    tagline: 'Carbon rig, cruising comforts',
    intro:
      'Designed for short-handed offshore races, the Halvard 31 pairs a carbon mast and bowsprit with a surprisingly civilised interior.',
    highlights: ['Carbon mast and retractable bowsprit', 'T-bulb keel with 1.95 m draft', 'Race-ready deck layout with Harken winches'],
    specs: [
      ['Length overall', '9.45 m'],
      ['Beam', '3.10 m'],
      ['Draft', '1.95 m'],
      ['Displacement', '3,400 kg'],
      ['Upwind sail area', '62 m²'],
      ['Engine', 'Yanmar 15 hp'],
    ],
  },
  {
    slug: 'cap-ferrand-34',
    name: 'Cap Ferrand 34',
    category: 'sailing-boats',
    priceEur: 142_000,
    tagline: 'Mediterranean cruising, French flair',
    intro:
      'Hull windows flood the saloon with light and the walk-around cockpit table seats eight for dinner at anchor. Built in La Rochelle.',
    highlights: ['Three cabins, one heads', 'Folding bathing platform with shower', 'Electric primary winch'],
    specs: [
      ['Length overall', '10.40 m'],
      ['Beam', '3.60 m'],
      ['Draft', '1.90 m'],
      ['Displacement', '5,800 kg'],
      ['Engine', 'Volvo Penta D1-30'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'baltic-tern-36',
    name: 'Baltic Tern 36',
    category: 'sailing-boats',
    priceEur: 189_500,
    tagline: 'Built for the archipelago, ready for the ocean',
    intro:
      'A sea-kindly hull, a protected centre cockpit and a deck-saloon view make the Baltic Tern 36 a favourite for long summers in the north.',
    highlights: ['Centre cockpit with hard windscreen', 'Bow thruster and in-mast furling', 'Owner cabin aft with island berth'],
    specs: [
      ['Length overall', '11.05 m'],
      ['Beam', '3.75 m'],
      ['Draft', '1.80 m'],
      ['Displacement', '7,900 kg'],
      ['Engine', 'Volvo Penta D2-50'],
      ['Cabins', '2'],
    ],
  },
  {
    slug: 'westerholm-38-ds',
    name: 'Westerholm 38 DS',
    category: 'sailing-boats',
    priceEur: 265_000,
    tagline: 'Deck saloon comfort in every weather',
    intro:
      'Panoramic saloon windows, an inside steering position and a heated interior: the Westerholm 38 DS stretches the season at both ends.',
    highlights: ['Inside and outside helm', 'Underfloor heating', 'Lithium house bank with 800 W of solar'],
    specs: [
      ['Length overall', '11.70 m'],
      ['Beam', '3.90 m'],
      ['Draft', '1.85 m'],
      ['Displacement', '9,100 kg'],
      ['Engine', 'Yanmar 57 hp'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'aurora-bay-40',
    name: 'Aurora Bay 40',
    category: 'sailing-boats',
    priceEur: 318_000,
    tagline: 'The fast cruiser, refined',
    intro:
      'A powerful hull with a chine forward, a self-tacking jib and a galley that works at sea. The Aurora Bay 40 covers 200 miles a day without fuss.',
    highlights: [
      'Self-tacking jib and Code 0 on a furler',
      'Twin helms with full instrument pods',
      'Lift keel option for shallow harbours',
    ],
    specs: [
      ['Length overall', '12.20 m'],
      ['Beam', '4.10 m'],
      ['Draft', '2.20 m'],
      ['Displacement', '8,400 kg'],
      ['Engine', 'Volvo Penta D2-60'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'lisandra-42-catamaran',
    name: 'Lisandra 42 Catamaran',
    yearBuilt: 2019,
    category: 'sailing-boats',
    priceEur: 489_000,
    tagline: 'Space, stability and a flybridge helm',
    intro:
      'Four double cabins with en-suite heads, a saloon and cockpit on one level, and a trampoline built for sunsets. Charter-proven, owner-finished.',
    highlights: ['Flybridge helm station and lounge', 'Four cabins, four heads', 'Watermaker and 10 kVA generator'],
    specs: [
      ['Length overall', '12.80 m'],
      ['Beam', '7.30 m'],
      ['Draft', '1.25 m'],
      ['Displacement', '13,500 kg'],
      ['Engines', '2 × Yanmar 57 hp'],
      ['Cabins', '4'],
    ],
  },
  {
    slug: 'skagen-polar-45',
    name: 'Skagen Polar 45',
    category: 'sailing-boats',
    priceEur: 612_000,
    tagline: 'An expedition sailboat for high latitudes',
    intro:
      'An aluminium hull with a collision bulkhead, a centreboard and a doghouse to steer from in sleet. The Skagen Polar 45 goes where the charts turn white.',
    highlights: [
      'Aluminium hull, 6 mm plating below the waterline',
      'Lifting centreboard: 1.10 m to 2.80 m',
      '1,000 litres of diesel for 1,500 miles under engine',
    ],
    specs: [
      ['Length overall', '13.75 m'],
      ['Beam', '4.35 m'],
      ['Draft', '1.10–2.80 m'],
      ['Displacement', '14,800 kg'],
      ['Engine', 'Nanni 110 hp'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'orcadia-50-bluewater',
    name: 'Orcadia 50 Bluewater',
    category: 'sailing-boats',
    priceEur: 895_000,
    tagline: 'Around the world in comfort',
    intro:
      'A cutter rig, a skeg-hung rudder and tankage for weeks between ports. The Orcadia 50 is built to cross oceans with a couple aboard.',
    highlights: [
      'Cutter rig with hydraulic furling',
      'Watertight crash box and skeg-hung rudder',
      '1,100 litres of fresh water plus watermaker',
    ],
    specs: [
      ['Length overall', '15.30 m'],
      ['Beam', '4.70 m'],
      ['Draft', '2.25 m'],
      ['Displacement', '19,500 kg'],
      ['Engine', 'Volvo Penta D3-150'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'tamsin-56-raised-saloon',
    name: 'Tamsin 56 Raised Saloon',
    category: 'sailing-boats',
    priceEur: 1_350_000,
    tagline: 'A sailing home with a view',
    intro:
      'A raised saloon gives 360-degree views from the dinette; push-button sail handling brings the whole boat within reach of two people.',
    highlights: ['Electric winches and in-boom furling', 'Garage for a 3 m tender', 'Crew cabin forward'],
    specs: [
      ['Length overall', '17.10 m'],
      ['Beam', '5.00 m'],
      ['Draft', '2.60 m'],
      ['Displacement', '26,000 kg'],
      ['Engine', 'Volvo Penta D4-175'],
      ['Cabins', '3 + crew'],
    ],
  },
  {
    slug: 'valkyr-65-performance-cruiser',
    name: 'Valkyr 65 Performance Cruiser',
    category: 'sailing-boats',
    priceEur: 2_950_000,
    tagline: 'A carbon flagship that races and cruises',
    intro:
      'Full carbon construction, a canting-free deep keel and a saloon finished in oak. The Valkyr 65 crosses an ocean at twelve knots and wins the regatta on arrival.',
    highlights: ['Full carbon hull, deck and rig', 'Twin rudders and 3.90 m keel', 'Hydraulic swim platform and tender garage'],
    specs: [
      ['Length overall', '19.80 m'],
      ['Beam', '5.45 m'],
      ['Draft', '3.90 m'],
      ['Displacement', '24,500 kg'],
      ['Engine', 'Steyr 250 hp'],
      ['Cabins', '4 + crew'],
    ],
  },
  {
    slug: 'riviera-azzurra-42-open',
    name: 'Riviera Azzurra 42 Open',
    category: 'yachts',
    priceEur: 690_000,
    tagline: 'Open-air days at 38 knots',
    intro:
      'A stepped deep-V hull, a sun lounge that runs the width of the stern and a cabin for two below. Lunch in Portofino, dinner in Saint-Tropez.',
    highlights: ['Twin Volvo Penta IPS 650 with joystick', 'Electric sun awning', 'Wet bar with grill and icemaker'],
    specs: [
      ['Length overall', '12.90 m'],
      ['Beam', '3.95 m'],
      ['Top speed', '38 knots'],
      ['Fuel', '1,200 litres'],
      ['Engines', '2 × 480 hp'],
      ['Cabins', '1'],
    ],
  },
  {
    slug: 'costa-brava-48-fly',
    name: 'Costa Brava 48 Fly',
    category: 'yachts',
    priceEur: 1_150_000,
    tagline: 'Three cabins and a flybridge for the family',
    intro:
      'A flybridge with a second helm and lounge, a full-beam master cabin and a hydraulic bathing platform that lowers the tender into the sea.',
    highlights: ['Full-beam master cabin with hull windows', 'Hydraulic bathing platform', 'Gyro stabiliser'],
    specs: [
      ['Length overall', '15.20 m'],
      ['Beam', '4.60 m'],
      ['Top speed', '31 knots'],
      ['Fuel', '2,000 litres'],
      ['Engines', '2 × Cummins 600 hp'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'monte-argento-52-coupe',
    name: 'Monte Argento 52 Coupé',
    category: 'yachts',
    priceEur: 1_480_000,
    tagline: 'Sports coupé lines, grand tourer range',
    intro:
      'A sliding glass roof opens the saloon to the sky; below, three cabins in walnut and linen. Built in Ancona with a hull by an offshore-racing designer.',
    highlights: ['Electric sliding roof', 'Twin IPS 800 pods', 'Tender garage for a 2.8 m jet tender'],
    specs: [
      ['Length overall', '16.10 m'],
      ['Beam', '4.75 m'],
      ['Top speed', '34 knots'],
      ['Fuel', '2,400 litres'],
      ['Engines', '2 × 625 hp'],
      ['Cabins', '3'],
    ],
  },
  {
    slug: 'seahaven-58-flybridge',
    name: 'Seahaven 58 Flybridge',
    yearBuilt: 2016,
    category: 'yachts',
    priceEur: 2_150_000,
    tagline: 'British-built, Mediterranean-ready',
    intro:
      'A generous flybridge with a hard top, a cockpit galley and a crew cabin aft. The Seahaven 58 has crossed the Bay of Biscay more times than any other yacht in her class.',
    highlights: ['Hard top with opening sunroof', 'Crew cabin with separate access', 'Seakeeper stabiliser'],
    specs: [
      ['Length overall', '18.20 m'],
      ['Beam', '5.05 m'],
      ['Top speed', '32 knots'],
      ['Fuel', '3,300 litres'],
      ['Engines', '2 × MAN 1,000 hp'],
      ['Cabins', '3 + crew'],
    ],
  },
  {
    slug: 'belmare-64-sport',
    name: 'Belmare 64 Sport',
    yearBuilt: 2021,
    category: 'yachts',
    priceEur: 2_890_000,
    tagline: 'Speed with a full-beam owner suite',
    intro:
      'A low profile, a teak foredeck lounge and a top speed near forty knots. Belmare finishes every interior to the owner’s drawings.',
    highlights: ['Surface drives for 39 knots', 'Foredeck sun lounge with bimini', 'Owner suite with walk-in wardrobe'],
    specs: [
      ['Length overall', '19.60 m'],
      ['Beam', '5.10 m'],
      ['Top speed', '39 knots'],
      ['Fuel', '3,800 litres'],
      ['Engines', '2 × MTU 1,400 hp'],
      ['Cabins', '3 + crew'],
    ],
  },
  {
    slug: 'portofino-stella-70',
    name: 'Portofino Stella 70',
    category: 'yachts',
    priceEur: 3_950_000,
    tagline: 'Italian craftsmanship on three decks',
    intro:
      'A main-deck master suite with a private terrace, a flybridge spa pool and a beach club at the waterline: a small superyacht experience under 24 metres.',
    highlights: ['Main-deck master suite', 'Flybridge spa pool', 'Beach club with fold-down terrace'],
    specs: [
      ['Length overall', '21.40 m'],
      ['Beam', '5.60 m'],
      ['Top speed', '30 knots'],
      ['Fuel', '5,000 litres'],
      ['Engines', '2 × MAN 1,550 hp'],
      ['Cabins', '4 + crew'],
    ],
  },
  {
    slug: 'nautilus-grand-78',
    name: 'Nautilus Grand 78',
    category: 'yachts',
    priceEur: 5_400_000,
    tagline: 'Long-range comfort at displacement speeds',
    intro:
      'A semi-displacement hull crosses 1,800 miles at ten knots on one tank. Inside: oak floors, a country kitchen and a sky lounge with 270-degree views.',
    highlights: ['1,800 nautical miles at 10 knots', 'Sky lounge with bar', 'Zero-speed stabilisers'],
    specs: [
      ['Length overall', '23.80 m'],
      ['Beam', '6.20 m'],
      ['Cruising speed', '10–22 knots'],
      ['Fuel', '9,000 litres'],
      ['Engines', '2 × Caterpillar 1,200 hp'],
      ['Cabins', '4 + 2 crew'],
    ],
  },
  {
    slug: 'altamar-85-explorer',
    name: 'Altamar 85 Explorer',
    category: 'yachts',
    priceEur: 6_900_000,
    tagline: 'An ice-class explorer with a crane and a dive centre',
    intro:
      'Steel hull, aluminium superstructure and a working aft deck with a 2-tonne crane for tenders, jet skis or a submarine. Built to the polar code.',
    highlights: ['Ice-class steel hull', '4,500 nautical miles range', 'Dive centre with compressor'],
    specs: [
      ['Length overall', '26.00 m'],
      ['Beam', '7.40 m'],
      ['Cruising speed', '11 knots'],
      ['Fuel', '28,000 litres'],
      ['Engines', '2 × John Deere 500 hp'],
      ['Cabins', '5 + crew'],
    ],
  },
  {
    slug: 'marquesa-92-tri-deck',
    name: 'Marquesa 92 Tri-Deck',
    category: 'yachts',
    priceEur: 9_800_000,
    tagline: 'Three decks of entertaining space',
    intro:
      'Ten guests in five cabins, a crew of five and a sun deck with a spa, gym and bar. The Marquesa 92 is a charter favourite in the Balearics.',
    highlights: ['Sun deck spa and gym', 'Five guest cabins, all en suite', 'Tender garage for a 5 m tender'],
    specs: [
      ['Length overall', '28.00 m'],
      ['Beam', '7.10 m'],
      ['Top speed', '26 knots'],
      ['Fuel', '14,000 litres'],
      ['Engines', '2 × MTU 2,600 hp'],
      ['Cabins', '5 + crew'],
    ],
  },
  {
    slug: 'serenissima-108',
    name: 'Serenissima 108',
    category: 'yachts',
    priceEur: 14_500_000,
    tagline: 'A Venetian palazzo on the water',
    intro:
      'Terrazzo floors, Murano glass and a private owner’s deck with a hot tub. The Serenissima 108 is built in composite by a yard with seventy years of history.',
    highlights: ['Private owner’s deck forward', 'Glass-bottomed beach club', 'Hybrid propulsion for silent nights at anchor'],
    specs: [
      ['Length overall', '33.00 m'],
      ['Beam', '7.50 m'],
      ['Top speed', '24 knots'],
      ['Fuel', '20,000 litres'],
      ['Propulsion', 'Diesel-electric hybrid, 2 × 2,400 hp'],
      ['Cabins', '5 + crew'],
    ],
  },
  {
    slug: 'aquila-40m-superyacht',
    name: 'Aquila 40m Superyacht',
    category: 'yachts',
    priceEur: 27_000_000,
    tagline: 'Forty metres of quiet luxury',
    intro:
      'A full-beam main-deck owner suite, a cinema, a helipad-rated sun deck and a crew of nine. Designed in London, built in the Netherlands.',
    highlights: ['Touch-and-go helipad on the sun deck', 'Cinema and wellness deck', 'Zero-speed stabilisers and hybrid generators'],
    specs: [
      ['Length overall', '40.00 m'],
      ['Beam', '8.40 m'],
      ['Gross tonnage', '399 GT'],
      ['Range', '4,000 nautical miles at 12 knots'],
      ['Engines', '2 × MTU 2,000 hp'],
      ['Cabins', '6 + 5 crew'],
    ],
  },
  {
    slug: 'leviathan-55m-explorer',
    name: 'Leviathan 55m Explorer',
    category: 'yachts',
    priceEur: 48_500_000,
    tagline: 'A global explorer superyacht',
    intro:
      'Twelve guests, sixteen crew and a hangar for a helicopter. The Leviathan 55m carries two tenders, a submarine and fuel for an Atlantic crossing and back.',
    highlights: ['Enclosed helicopter hangar', 'Seven-seat tender and limousine tender', 'Ice-class hull for polar cruising'],
    specs: [
      ['Length overall', '55.00 m'],
      ['Beam', '10.20 m'],
      ['Gross tonnage', '1,150 GT'],
      ['Range', '7,500 nautical miles at 12 knots'],
      ['Engines', '2 × Caterpillar 2,250 hp'],
      ['Cabins', '6 + 8 crew'],
    ],
  },
];

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The product page's HTML, using only tags the admin editor's sanitiser keeps. */
export function demoDescriptionHtml(product: DemoProduct): string {
  const highlights = product.highlights.map((item) => `<li>${escapeHtml(item)}</li>`).join('');
  const specs = [...product.specs, ...(product.yearBuilt ? [['Year built', String(product.yearBuilt)] as const] : [])]
    .map(([label, value]) => `<li><strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}</li>`)
    .join('');
  return (
    `<h2>${escapeHtml(product.tagline)}</h2>` +
    `<p>${escapeHtml(product.intro)}</p>` +
    `<h3>Highlights</h3><ul>${highlights}</ul>` +
    `<h3>Specifications</h3><ul>${specs}</ul>`
  );
}

/** A used boat exists once; a new model is built to order (null: unlimited). */
export const demoStock = (product: DemoProduct): number | null => (product.yearBuilt === undefined ? null : 1);

export const demoImageUrl = (product: DemoProduct) => `/api/images/${product.slug}.svg`;

/** Used boats the dealer bought VAT-paid (standard VAT); every other used boat came from a private seller. */
const DEMO_VAT_PAID_USED = new Set(['belmare-64-sport']);

/**
 * books: each demo boat's VAT treatment. A new model is a new boat (its length from the
 * specifications, never used); a used boat is sold under the margin scheme unless the dealer
 * bought it VAT-paid.
 */
export function demoVatColumns(product: DemoProduct) {
  if (product.yearBuilt !== undefined) {
    return { vat_treatment: DEMO_VAT_PAID_USED.has(product.slug) ? ('vat_paid_own_stock' as const) : ('margin_scheme' as const) };
  }
  const length = product.specs.find(([label]) => label === 'Length overall')?.[1];
  const metres = length ? Number.parseFloat(length) : Number.NaN;
  return { vat_treatment: 'new_boat' as const, vat_length_cm: Number.isFinite(metres) ? Math.round(metres * 100) : null };
}
