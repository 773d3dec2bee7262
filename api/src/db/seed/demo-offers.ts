import { sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { DEMO_ACCOUNTS } from './demo-accounts.js';

/** The demo yacht the demo shopper negotiated for, with an offer that has since expired. */
export const DEMO_EXPIRED_OFFER_BOAT = 'Seahaven 58 Flybridge';

const DAY_MS = 24 * 3_600_000;

/**
 * A conversation of the demo shopper about the Seahaven 58 Flybridge whose offer expired three
 * days ago: what an offer past its validity looks like in the account and the leads inbox (it
 * cannot be accepted any more). It holds no boat. Runs with the demo catalogue, once.
 */
export async function seedDemoOffers(trx: Transaction<Database>): Promise<void> {
  const shopper = await trx
    .selectFrom('users')
    .select(['id', 'display_name', 'email'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', DEMO_ACCOUNTS.shopper.email))
    .executeTakeFirst();
  const boat = await trx.selectFrom('products').select(['id', 'name']).where('name', '=', DEMO_EXPIRED_OFFER_BOAT).executeTakeFirst();
  if (!shopper || !boat) return;
  const admin = await trx
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', DEMO_ACCOUNTS.admin.email))
    .executeTakeFirst();
  const ago = (days: number) => new Date(Date.now() - days * DAY_MS);

  const lead = await trx
    .insertInto('leads')
    .values({
      product_id: boat.id,
      product_name: boat.name,
      user_id: shopper.id,
      buyer_name: shopper.display_name,
      email: shopper.email.toLowerCase(),
      state: 'offer_sent',
      confirmed_at: ago(20),
      created_at: ago(20),
      last_activity_at: ago(17),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('lead_messages')
    .values([
      { lead_id: lead.id, author: 'shopper', author_user_id: shopper.id, body: 'Would you consider an offer?', created_at: ago(20) },
      { lead_id: lead.id, author: 'shop', author_user_id: admin?.id ?? null, body: 'We are sending you one.', created_at: ago(17) },
    ])
    .execute();
  await trx
    .insertInto('lead_events')
    .values([
      { lead_id: lead.id, kind: 'enquiry', detail: null, actor_user_id: shopper.id, created_at: ago(20) },
      { lead_id: lead.id, kind: 'replied', detail: null, actor_user_id: admin?.id ?? null, created_at: ago(17) },
      { lead_id: lead.id, kind: 'offer_sent', detail: null, actor_user_id: admin?.id ?? null, created_at: ago(17) },
    ])
    .execute();
  await trx
    .insertInto('offers')
    .values({
      lead_id: lead.id,
      product_id: boat.id,
      product_name: boat.name,
      price_cents: 149_000_000,
      valid_until: sql<string>`(now() at time zone 'UTC')::date - 3`,
      conditions: 'Subject to survey.',
      created_by: admin?.id ?? null,
      created_at: ago(17),
    })
    .execute();
}
