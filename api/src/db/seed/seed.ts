import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../../features/users/password.js';
import type { NewProductRow } from '../../features/products/products.table.js';
import type { Database } from '../database.js';
import { specsFromDescription } from '../migrations/2026_11_26_030000_add_boat_specs.js';
import { DEMO_ACCOUNTS } from './demo-accounts.js';
import { DEMO_BOAT_LOCATIONS } from './demo-boat-locations.js';
import { seedDemoOffers } from './demo-offers.js';
import { seedDemoViewings } from './demo-viewings.js';
import { DEMO_PRODUCTS, demoDescriptionHtml, demoImageUrl, demoStock, demoVatColumns, type DemoProduct } from './demo-products.js';

export interface SeedResult {
  accountsCreated: number;
  productsCreated: number;
}

/**
 * Creates the demo accounts that are missing and, when the catalogue is empty, the demo
 * products. Safe to run on every start and from several replicas at once.
 */
export async function seedDemoData(db: Kysely<Database>): Promise<SeedResult> {
  // Hash outside the transaction: argon2 is slow on purpose and the lock should be short.
  const accounts = await Promise.all(
    Object.values(DEMO_ACCOUNTS).map(async (account) => ({
      email: account.email,
      display_name: account.displayName,
      roles: [...account.roles],
      password_hash: await hashPassword(account.password),
      email_verified: true,
    })),
  );

  return db.transaction().execute(async (trx) => {
    // Replicas starting together take turns, so the catalogue is seeded once.
    await sql`select pg_advisory_xact_lock(hashtext('boatshop:demo-seed'))`.execute(trx);

    const insertedAccounts = await trx
      .insertInto('users')
      .values(accounts)
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returning('id')
      .execute();

    const existing = await trx.selectFrom('products').select('id').limit(1).executeTakeFirst();
    if (existing) return { accountsCreated: insertedAccounts.length, productsCreated: 0 };

    const admin = await trx
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', DEMO_ACCOUNTS.admin.email))
      .executeTakeFirst();
    const now = Date.now();
    const products = await trx
      .insertInto('products')
      .values(
        DEMO_PRODUCTS.map((product, index) => ({
          name: product.name,
          thumbnail_url: demoImageUrl(product),
          price_cents: product.priceEur * 100,
          description_html: demoDescriptionHtml(product),
          category: product.category,
          stock_on_hand: demoStock(product),
          // Six hours apart, interleaving categories, so "newest first" mixes boats and yachts.
          created_at: new Date(now - seedOrder(index) * 6 * 3_600_000),
          created_by: admin?.id ?? null,
          ...demoVatColumns(product),
          ...demoBoatSpecs(product),
        })),
      )
      .returning(['id', 'name', 'thumbnail_url'])
      .execute();
    // find: each boat's picture is its first, linked picture
    await trx
      .insertInto('product_pictures')
      .values(products.map((product) => ({ product_id: product.id, position: 0, url: product.thumbnail_url, alt: product.name })))
      .execute();
    // offers: the demo shopper's expired offer, and the marinas' viewing calendars
    await seedDemoOffers(trx);
    await seedDemoViewings(trx);
    return { accountsCreated: insertedAccounts.length, productsCreated: products.length };
  });
}

/**
 * A demo boat's specifications: what its description says, read exactly as the migration that
 * introduced the columns read the boats already listed (so a seeded shop and a migrated one
 * agree), plus where it lies and its CE category, which no description says.
 */
function demoBoatSpecs(product: DemoProduct) {
  const location = DEMO_BOAT_LOCATIONS[product.slug];
  return {
    ...(specsFromDescription(product.name, demoDescriptionHtml(product)) as Partial<NewProductRow>),
    location_marina: location?.marina ?? null,
    location_country: location?.country ?? null,
    ce_category: location?.ceCategory ?? null,
  };
}

/** How many steps back in time the index-th demo product was added: categories alternate, each in list order. */
function seedOrder(index: number): number {
  const product = DEMO_PRODUCTS[index]!;
  const sameCategory = DEMO_PRODUCTS.filter((other) => other.category === product.category);
  const rankInCategory = sameCategory.indexOf(product);
  return rankInCategory * 2 + (product.category === 'yachts' ? 1 : 0);
}
