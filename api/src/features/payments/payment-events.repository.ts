import type { Db } from '../../db/database.js';

/** Records a provider event id once; false when it was seen before (a replay or a re-delivery). */
export async function recordPaymentEvent(
  db: Db,
  event: { eventId: string; type: string; paymentReference: string | null },
): Promise<boolean> {
  const row = await db
    .insertInto('payment_events')
    .values({ event_id: event.eventId, type: event.type, payment_reference: event.paymentReference })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}
