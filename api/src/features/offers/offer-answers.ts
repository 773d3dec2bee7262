// The answers to an offer: the buyer accepts, declines or makes one counter-offer; the shop accepts
// or declines the counter. Each is one conditional UPDATE on the state it starts from (the states
// are drawn in offers.repository.ts), so a double click or two racing requests make one change;
// an acceptance holds the boat in the same transaction.
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { formatEuro } from '../../lib/money.js';
import { addEvent } from '../leads/leads.repository.js';
import { holdOfferStock, OFFER_EXPIRED_SQL, offerExpired } from './offers.repository.js';

type Answer = 'accepted' | 'declined' | 'countered';

/**
 * Why an offer cannot take the buyer's answer (or the shop's on a counter): gone, expired, or in
 * another state. `already` is the state a repeated request would have reached: then it is no error.
 */
async function refusal(db: Db, offerId: string, from: string, already: Answer | 'sent'): Promise<ApiError | null> {
  const row = await db
    .selectFrom('offers')
    .select(['state', OFFER_EXPIRED_SQL.as('expired')])
    .where('id', '=', offerId)
    .executeTakeFirst();
  if (!row) return notFound('Offer not found');
  if (row.state === already && already !== from) return null;
  if (row.expired) return offerExpired();
  const said: Record<string, string> = {
    accepted: 'This offer has been accepted already.',
    declined: 'This offer has been declined.',
    countered: 'Your counter-offer is waiting for the shop’s answer.',
    sent: 'This offer is waiting for the buyer’s answer.',
  };
  return conflict('OFFER_CLOSED', said[row.state] ?? 'This offer cannot be answered now.');
}

async function answer(
  trx: Transaction<Database>,
  input: {
    offerId: string;
    from: 'sent' | 'countered';
    to: Answer | 'sent';
    actorId: string;
    changes: Record<string, unknown>;
    event: string;
    detail: string | null;
  },
): Promise<boolean> {
  const row = await trx
    .updateTable('offers')
    .set({ ...input.changes, state: input.to, responded_at: new Date() })
    .where('id', '=', input.offerId)
    .where('state', '=', input.from)
    .where(sql<boolean>`not (${OFFER_EXPIRED_SQL})`)
    .returning(['lead_id', 'product_id'])
    .executeTakeFirst();
  if (!row) {
    const refused = await refusal(trx, input.offerId, input.from, input.to);
    if (refused) throw refused;
    return false;
  }
  if (input.to === 'accepted') await holdOfferStock(trx, input.offerId, row.product_id);
  await trx.updateTable('leads').set({ last_activity_at: new Date() }).where('id', '=', row.lead_id).execute();
  await addEvent(trx, row.lead_id, input.event, input.detail, input.actorId);
  return true;
}

/** The buyer accepts at the offer's price. Returns false when it was accepted already (a double click). */
export function acceptOffer(trx: Transaction<Database>, offerId: string, userId: string): Promise<boolean> {
  return answer(trx, {
    offerId,
    from: 'sent',
    to: 'accepted',
    actorId: userId,
    changes: { agreed_price_cents: sql`price_cents` },
    event: 'offer_accepted',
    detail: null,
  });
}

export function declineOffer(trx: Transaction<Database>, offerId: string, userId: string): Promise<boolean> {
  return answer(trx, { offerId, from: 'sent', to: 'declined', actorId: userId, changes: {}, event: 'offer_declined', detail: null });
}

/** The buyer's one counter-offer: refused once a counter was made, or at or above the offer's price. */
export async function counterOffer(
  trx: Transaction<Database>,
  offerId: string,
  userId: string,
  counter: { priceCents: number; message: string | null },
): Promise<boolean> {
  const current = await trx
    .selectFrom('offers')
    .select(['price_cents', 'counter_price_cents', 'state'])
    .where('id', '=', offerId)
    .executeTakeFirst();
  if (!current) throw notFound('Offer not found');
  if (current.state === 'sent' && current.counter_price_cents !== null) {
    throw conflict('COUNTER_USED', 'You have made your counter-offer already; you can accept or decline this offer.');
  }
  if (current.state === 'sent' && counter.priceCents >= Number(current.price_cents)) {
    throw new ApiError(400, 'VALIDATION', 'A counter-offer must be below the offer’s price; to pay that price, accept the offer.', {
      details: ['A counter-offer must be below the offer’s price.'],
    });
  }
  return answer(trx, {
    offerId,
    from: 'sent',
    to: 'countered',
    actorId: userId,
    changes: { counter_price_cents: counter.priceCents, counter_message: counter.message },
    event: 'offer_countered',
    detail: formatEuro(counter.priceCents),
  });
}

/** The shop accepts the buyer's counter-offer: the agreed price is the counter's. */
export function acceptCounter(trx: Transaction<Database>, offerId: string, adminId: string): Promise<boolean> {
  return answer(trx, {
    offerId,
    from: 'countered',
    to: 'accepted',
    actorId: adminId,
    changes: { agreed_price_cents: sql`counter_price_cents` },
    event: 'counter_accepted',
    detail: null,
  });
}

/** The shop declines the counter-offer: the offer stands at its own price until it expires. */
export function declineCounter(trx: Transaction<Database>, offerId: string, adminId: string): Promise<boolean> {
  return answer(trx, { offerId, from: 'countered', to: 'sent', actorId: adminId, changes: {}, event: 'counter_declined', detail: null });
}
