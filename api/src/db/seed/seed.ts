import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../../features/users/password.js';
import type { Database } from '../database.js';
import { DEMO_PRODUCTS, demoDescriptionHtml, demoImageUrl, demoStock } from './demo-products.js';

/** Published in the README and used by the browser tests: demo data only, never production. */
export const DEMO_ACCOUNTS = [
  { email: 'shopper@example.com', password: 'boats-ahoy-2024', displayName: 'Sandy Shopper', roles: ['user'] },
  { email: 'admin@example.com', password: 'admin-ahoy-2024', displayName: 'Ada Admin', roles: ['user', 'owner'] },
  { email: 'sales@example.com', password: 'sales-ahoy-2024', displayName: 'Sam Sales', roles: ['user', 'sales'] },
  { email: 'accountant@example.com', password: 'ledger-ahoy-2024', displayName: 'Alex Accountant', roles: ['user', 'accountant'] },
  { email: 'editor@example.com', password: 'editor-ahoy-2024', displayName: 'Eddie Editor', roles: ['user', 'editor'] },
] as const;

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
    DEMO_ACCOUNTS.map(async (account) => ({
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
      .where((eb) => eb(eb.fn('lower', ['email']), '=', 'admin@example.com'))
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
        })),
      )
      .returning('id')
      .execute();
    return { accountsCreated: insertedAccounts.length, productsCreated: products.length };
  });
}

/** How many steps back in time the index-th demo product was added: categories alternate, each in list order. */
function seedOrder(index: number): number {
  const product = DEMO_PRODUCTS[index]!;
  const sameCategory = DEMO_PRODUCTS.filter((other) => other.category === product.category);
  const rankInCategory = sameCategory.indexOf(product);
  return rankInCategory * 2 + (product.category === 'yachts' ? 1 : 0);
}
