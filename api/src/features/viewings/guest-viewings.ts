import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { Slot } from './slots.js';
import { attachToLead, lapseHolds, rangeOf, type ViewingRow } from './viewings.repository.js';
import type { ViewingKind } from './viewings.table.js';

// A guest's booking: the time is held (status pending) for GUEST_HOLD_MS while the guest opens
// the e-mailed link; nothing reaches the shop before. The link works once, for a day; opened
// after the hold ran out it still books the time when nobody took it meanwhile.

/** How long a guest's unconfirmed booking keeps its time from others. */
export const GUEST_HOLD_MS = 30 * 60_000;
/** How long the guest's link works. */
export const GUEST_LINK_TTL_MS = 24 * 3_600_000;

/** Bookings made in the last hour by this e-mail address (as a guest) or this account, confirmed or not. */
export async function countRecentBookings(db: Db, email: string, userId: string | null): Promise<number> {
  const row = await db
    .selectFrom('viewings')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .where((eb) => (userId ? eb.or([eb('user_id', '=', userId), eb('guest_email', '=', email)]) : eb('guest_email', '=', email)))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Holds the slot for the guest; the exclusion constraint judges a race as for any booking. */
export async function holdGuestViewing(
  db: Kysely<Database>,
  input: {
    locationId: string;
    slot: Slot;
    kind: ViewingKind;
    productId: string;
    productName: string;
    name: string;
    email: string;
    tokenHash: string;
  },
  after: (trx: Transaction<Database>, viewing: ViewingRow) => Promise<void>,
): Promise<ViewingRow> {
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    await lapseHolds(trx, input.locationId);
    const viewing = await trx
      .insertInto('viewings')
      .values({
        location_id: input.locationId,
        product_id: input.productId,
        product_name: input.productName,
        kind: input.kind,
        user_id: null,
        guest_name: input.name,
        guest_email: input.email.toLowerCase(),
        status: 'pending',
        confirm_token_hash: input.tokenHash,
        confirm_expires_at: new Date(now + GUEST_LINK_TTL_MS),
        hold_until: new Date(now + GUEST_HOLD_MS),
        starts_at: input.slot.startsAt,
        ends_at: input.slot.endsAt,
        blocked: rangeOf(input.slot),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await after(trx, viewing);
    return viewing;
  });
}

/** The unconfirmed booking a link names, while the link works and the time is still ahead. */
export async function findByToken(db: Db, tokenHash: string): Promise<ViewingRow | undefined> {
  return db
    .selectFrom('viewings')
    .selectAll()
    .where('confirm_token_hash', '=', tokenHash)
    .where('status', 'in', ['pending', 'lapsed'])
    .where('confirm_expires_at', '>', new Date())
    .where('starts_at', '>', new Date())
    .executeTakeFirst();
}

/**
 * Books a guest's held (or lapsed) time: the token is spent in the statement that books, so one
 * link books once. When the hold lapsed and someone took the time, the constraint refuses
 * (23P01) and nothing changes. Undefined when the link is unknown, used or expired.
 */
export async function confirmGuestViewing(
  db: Kysely<Database>,
  input: { tokenHash: string; locationId: string; label: string; clientAddress: string },
  after: (trx: Transaction<Database>, viewing: ViewingRow) => Promise<void>,
): Promise<ViewingRow | undefined> {
  return db.transaction().execute(async (trx) => {
    await lapseHolds(trx, input.locationId);
    const booked = await trx
      .updateTable('viewings')
      .set({ status: 'booked', confirm_token_hash: null, confirm_expires_at: null, hold_until: null })
      .where('confirm_token_hash', '=', input.tokenHash)
      .where('status', 'in', ['pending', 'lapsed'])
      .where('confirm_expires_at', '>', new Date())
      .where('starts_at', '>', new Date())
      .returningAll()
      .executeTakeFirst();
    if (!booked) return undefined;
    const viewing = await attachToLead(trx, booked, {
      userId: null,
      buyerName: booked.guest_name ?? '',
      email: booked.guest_email ?? '',
      label: input.label,
      clientAddress: input.clientAddress,
    });
    await after(trx, viewing);
    return viewing;
  });
}

/**
 * A guest's confirmed bookings become the account's once the account has proven that e-mail
 * address (as the guest's enquiries do): an unverified sign-up never sees them.
 */
export async function claimGuestViewings(db: Db, user: { id: string; email: string; emailVerified: boolean }): Promise<void> {
  if (!user.emailVerified) return;
  await db
    .updateTable('viewings')
    .set({ user_id: user.id })
    .where('user_id', 'is', null)
    .where('guest_email', '=', user.email.toLowerCase())
    .where('status', 'in', ['booked', 'cancelled'])
    .execute();
}
