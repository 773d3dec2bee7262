import type { Kysely, Selectable, Transaction } from 'kysely';
import { isUuid } from '@boatshop/contract';
import type { Database, Db } from '../../db/database.js';
import { ApiError, badRequest } from '../../lib/errors.js';
import { queueMail } from '../leads/lead-mails.js';
import { localLabel, type Slot } from './slots.js';
import { viewingBookedMail, viewingForShopMail, type ViewingMailFacts } from './viewing-mails.js';
import { changesOf, freeSlotsOf, offeredSlotAt, placeOfProduct } from './viewings.repository.js';
import type { ViewingKind, ViewingsTable } from './viewings.table.js';

// What the booking routes (an account's and a guest's) share: the refusal of a taken time with
// the next free ones, and the e-mails that announce a booking.

type ViewingRow = Selectable<ViewingsTable>;

/** 409 SLOT_TAKEN naming the next three free times of that kind at the marina. */
export async function slotTakenError(db: Kysely<Database>, locationId: string, kind: ViewingKind, exceptId?: string): Promise<ApiError> {
  const { location, slots } = await freeSlotsOf(db, locationId, new Date(), exceptId, kind);
  const next = slots.slice(0, 3).map((slot) => localLabel(slot.startsAt, location.time_zone));
  return new ApiError(
    409,
    'SLOT_TAKEN',
    next.length > 0
      ? `Someone has just booked this time. The next free times are ${next.join(', ')}.`
      : 'Someone has just booked this time, and no other time is free in the coming weeks.',
    { details: next },
  );
}

export async function viewingFacts(trx: Transaction<Database> | Kysely<Database>, viewing: ViewingRow): Promise<ViewingMailFacts> {
  const location = await trx.selectFrom('viewing_locations').selectAll().where('id', '=', viewing.location_id).executeTakeFirstOrThrow();
  return {
    id: viewing.id,
    productName: viewing.product_name,
    marina: location.marina,
    address: location.address,
    startsAt: viewing.starts_at,
    endsAt: viewing.ends_at,
    label: localLabel(viewing.starts_at, location.time_zone),
    timeZone: location.time_zone,
    sequence: await changesOf(trx, viewing),
    kind: viewing.kind,
  };
}

/** The booking or move, told to the buyer (with the .ics) and to the shop's inbox, in its transaction. */
export async function announceViewing(
  trx: Transaction<Database>,
  viewing: ViewingRow,
  o: { to: string; buyerName: string; what: 'booked' | 'moved'; publicUrl: string; inbox: string; guest?: boolean },
): Promise<void> {
  const facts = await viewingFacts(trx, viewing);
  await queueMail(
    trx,
    viewingBookedMail({
      to: o.to,
      buyerName: o.buyerName,
      facts,
      manageLink: `${o.publicUrl}/viewings/${viewing.id}`,
      rescheduled: o.what === 'moved',
      ...(o.guest ? { guest: true } : {}),
    }),
  );
  const leadLink = viewing.lead_id ? `${o.publicUrl}/admin/leads/${viewing.lead_id}` : `${o.publicUrl}/admin/leads`;
  await queueMail(trx, viewingForShopMail({ to: o.inbox, buyerName: o.buyerName, facts, what: o.what, link: leadLink }));
}

/** Where the boat is viewed, for a booking of that kind: 404 when the shop has no calendar there or the boat offers no sea trials. */
export async function placeFor(db: Db, productId: string, kind: ViewingKind) {
  const place = isUuid(productId) ? await placeOfProduct(db, productId) : undefined;
  if (!place) throw new ApiError(404, 'VIEWINGS_UNAVAILABLE', 'Viewings of this boat are arranged by the shop: please ask a question.');
  if (kind === 'sea_trial' && !place.sea_trials) {
    throw new ApiError(404, 'SEA_TRIALS_UNAVAILABLE', 'This boat offers no sea trials: please book a viewing or ask a question.');
  }
  return place;
}

/** The slot a request names: one the marina's calendar offers for that kind, else 400. */
export async function slotOr400(db: Db, locationId: string, startsAt: string, kind: ViewingKind): Promise<Slot> {
  const slot = await offeredSlotAt(db, locationId, new Date(startsAt), kind);
  if (!slot) {
    const message = `This is not a ${kind === 'sea_trial' ? 'sea trial' : 'viewing'} time the marina offers.`;
    throw badRequest(message, [message]);
  }
  return slot;
}
