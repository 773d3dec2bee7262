import type { Viewing } from '@boatshop/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { addEvent, insertLead } from '../leads/leads.repository.js';
import { freeSlots, localDay, localLabel, slotsOf, type Availability, type Slot } from './slots.js';
import type { DayHours, ViewingKind, ViewingLocationsTable, ViewingsTable } from './viewings.table.js';

type LocationRow = Selectable<ViewingLocationsTable>;
export type ViewingRow = Selectable<ViewingsTable>;

/** How far ahead shoppers see slots, in the marina's calendar days. */
export const VIEWING_DAYS_AHEAD = 28;
/** The least notice a viewing needs: slots starting sooner are not offered. */
export const VIEWING_NOTICE_MS = 2 * 3_600_000;

/** PostgreSQL's exclusion_violation: a booked viewing already takes part of that time. */
export const isSlotTaken = (error: unknown) => (error as { code?: string } | null)?.code === '23P01';

/** Where a boat can be viewed: the location whose marina is the boat's (products.location_marina). */
export async function placeOfProduct(db: Db, productId: string) {
  return db
    .selectFrom('products as p')
    .innerJoin('viewing_locations as l', 'l.marina', 'p.location_marina')
    .select(['p.id as product_id', 'p.name as product_name', 'p.sea_trials', 'l.id as location_id', 'l.time_zone'])
    .where('p.id', '=', productId)
    .executeTakeFirst();
}

async function availabilityOf(
  db: Db,
  locationId: string,
  kind: ViewingKind,
): Promise<{ location: LocationRow; availability: Availability }> {
  const location = await db.selectFrom('viewing_locations').selectAll().where('id', '=', locationId).executeTakeFirstOrThrow();
  const exceptions = await db
    .selectFrom('viewing_exceptions')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'hours'])
    .where('location_id', '=', locationId)
    .execute();
  return {
    location,
    availability: {
      timeZone: location.time_zone,
      // A sea trial takes the marina's sea trial length; the buffer after it is the same.
      slotMinutes: kind === 'sea_trial' ? location.sea_trial_minutes : location.slot_minutes,
      bufferMinutes: location.buffer_minutes,
      weeklyHours: location.weekly_hours,
      exceptions: new Map(exceptions.map((row) => [row.day, row.hours as DayHours | null])),
    },
  };
}

/** Every slot the marina's calendar offers from today (its own day) on, booked or not. */
async function offeredSlots(db: Db, locationId: string, now: Date, kind: ViewingKind) {
  const { location, availability } = await availabilityOf(db, locationId, kind);
  return { location, slots: slotsOf(availability, localDay(now, location.time_zone), VIEWING_DAYS_AHEAD) };
}

/**
 * The free slots of the location for that kind of booking: offered, at least VIEWING_NOTICE_MS
 * ahead, and overlapping no booked viewing nor a guest's still held one (of either kind).
 */
export async function freeSlotsOf(db: Db, locationId: string, now = new Date(), exceptViewingId?: string, kind: ViewingKind = 'viewing') {
  const { location, slots } = await offeredSlots(db, locationId, now, kind);
  let taken = db
    .selectFrom('viewings')
    .select([sql<Date>`lower(blocked)`.as('from'), sql<Date>`upper(blocked)`.as('until')])
    .where('location_id', '=', locationId)
    .where((eb) => eb.or([eb('status', '=', 'booked'), eb.and([eb('status', '=', 'pending'), eb('hold_until', '>', now)])]))
    .where(sql<boolean>`upper(blocked) > ${now}`);
  if (exceptViewingId) taken = taken.where('id', '<>', exceptViewingId);
  const ranges = (await taken.execute()).map((row) => ({ from: new Date(row.from), until: new Date(row.until) }));
  return { location, slots: freeSlots(slots, ranges, new Date(now.getTime() + VIEWING_NOTICE_MS)) };
}

/** The offered slot starting exactly then (on the marina's grid, within its hours), if any. */
export async function offeredSlotAt(
  db: Db,
  locationId: string,
  startsAt: Date,
  kind: ViewingKind = 'viewing',
  now = new Date(),
): Promise<Slot | undefined> {
  if (startsAt.getTime() < now.getTime() + VIEWING_NOTICE_MS) return undefined;
  const { slots } = await offeredSlots(db, locationId, now, kind);
  return slots.find((slot) => slot.startsAt.getTime() === startsAt.getTime());
}

export const rangeOf = (slot: Slot) => `[${slot.startsAt.toISOString()},${slot.blockedUntil.toISOString()})`;

/** Who a booking is for: an account, or a guest (no account) by name and e-mail. */
export interface Booker {
  userId: string | null;
  buyerName: string;
  email: string;
}

/** The words a booking of that kind goes by in texts: "viewing" or "sea trial". */
export const kindWord = (kind: ViewingKind) => (kind === 'sea_trial' ? 'sea trial' : 'viewing');

/** The timeline's detail of a booking: its time, and its kind when a sea trial. */
export const eventDetail = (kind: ViewingKind, label: string) => (kind === 'sea_trial' ? `sea trial, ${label}` : label);

/**
 * The lead a booking belongs to: the booker's open conversation about the boat (an account's
 * own, or a guest's by the same e-mail), or a new one saying what was booked.
 */
async function leadForViewing(
  trx: Transaction<Database>,
  input: Booker & { productId: string; productName: string; label: string; kind: ViewingKind; clientAddress: string },
): Promise<string> {
  let open = trx
    .selectFrom('leads')
    .select('id')
    .where('product_id', '=', input.productId)
    .where('confirmed_at', 'is not', null)
    .where('state', 'not in', ['won', 'lost']);
  open = input.userId
    ? open.where('user_id', '=', input.userId)
    : open.where('user_id', 'is', null).where('email', '=', input.email.toLowerCase());
  const found = await open.orderBy('last_activity_at', 'desc').executeTakeFirst();
  if (found) return found.id;
  const lead = await insertLead(trx, {
    productId: input.productId,
    productName: input.productName,
    userId: input.userId,
    buyerName: input.buyerName,
    email: input.email,
    message: `I booked a ${kindWord(input.kind)} for ${input.label}.`,
    clientAddress: input.clientAddress,
    confirmation: null,
  });
  return lead.id;
}

/**
 * Joins a booked viewing to its lead: the lead becomes viewing_booked (from new or answered)
 * and its timeline (and so the funnel) gets viewing_booked.
 */
export async function attachToLead(
  trx: Transaction<Database>,
  viewing: ViewingRow,
  input: Booker & { label: string; clientAddress: string },
): Promise<ViewingRow> {
  const leadId = await leadForViewing(trx, {
    ...input,
    productId: viewing.product_id!,
    productName: viewing.product_name,
    kind: viewing.kind,
  });
  const row = await trx
    .updateTable('viewings')
    .set({ lead_id: leadId })
    .where('id', '=', viewing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('leads')
    .set({ state: sql`case when state in ('new', 'answered') then 'viewing_booked' else state end`, last_activity_at: new Date() })
    .where('id', '=', leadId)
    .execute();
  await addEvent(trx, leadId, 'viewing_booked', eventDetail(viewing.kind, input.label), input.userId);
  return row;
}

/**
 * Marks the guests' holds at the marina that ran out as lapsed, so that their time can be
 * booked again; run in the booking's transaction, before its insert.
 */
export async function lapseHolds(trx: Transaction<Database>, locationId: string): Promise<void> {
  await trx
    .updateTable('viewings')
    .set({ status: 'lapsed' })
    .where('location_id', '=', locationId)
    .where('status', '=', 'pending')
    .where('hold_until', '<=', new Date())
    .execute();
}

/**
 * Books the slot for an account. The exclusion constraint is the only judge of a race: the
 * insert of the second of two shoppers for overlapping time fails with 23P01 and its transaction
 * rolls back whole (the caller answers 409 with the next free slots).
 */
export async function bookViewing(
  db: Kysely<Database>,
  input: {
    locationId: string;
    slot: Slot;
    kind: ViewingKind;
    productId: string;
    productName: string;
    userId: string;
    buyerName: string;
    email: string;
    clientAddress: string;
    label: string;
  },
  after: (trx: Transaction<Database>, viewing: ViewingRow) => Promise<void>,
): Promise<ViewingRow> {
  return db.transaction().execute(async (trx) => {
    await lapseHolds(trx, input.locationId);
    const inserted = await trx
      .insertInto('viewings')
      .values({
        location_id: input.locationId,
        product_id: input.productId,
        product_name: input.productName,
        kind: input.kind,
        user_id: input.userId,
        starts_at: input.slot.startsAt,
        ends_at: input.slot.endsAt,
        blocked: rangeOf(input.slot),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const viewing = await attachToLead(trx, inserted, input);
    await after(trx, viewing);
    return viewing;
  });
}

/** Moves the shopper's booked viewing to another slot; the exclusion constraint judges races here too. */
export async function rescheduleViewing(
  db: Kysely<Database>,
  input: { id: string; userId: string; locationId: string; slot: Slot; label: string },
  after: (trx: Transaction<Database>, viewing: ViewingRow) => Promise<void>,
): Promise<ViewingRow | undefined> {
  return db.transaction().execute(async (trx) => {
    await lapseHolds(trx, input.locationId);
    const viewing = await trx
      .updateTable('viewings')
      .set({ starts_at: input.slot.startsAt, ends_at: input.slot.endsAt, blocked: rangeOf(input.slot), reminder_sent_at: null })
      .where('id', '=', input.id)
      .where('user_id', '=', input.userId)
      .where('status', '=', 'booked')
      .returningAll()
      .executeTakeFirst();
    if (!viewing) return undefined;
    if (viewing.lead_id) await addEvent(trx, viewing.lead_id, 'viewing_rescheduled', eventDetail(viewing.kind, input.label), input.userId);
    await after(trx, viewing);
    return viewing;
  });
}

/** Cancels the shopper's booked viewing, once; the slot is free again at once. */
export async function cancelViewing(
  db: Kysely<Database>,
  input: { id: string; userId: string },
  after: (trx: Transaction<Database>, viewing: ViewingRow) => Promise<void>,
): Promise<ViewingRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const viewing = await trx
      .updateTable('viewings')
      .set({ status: 'cancelled' })
      .where('id', '=', input.id)
      .where('user_id', '=', input.userId)
      .where('status', '=', 'booked')
      .returningAll()
      .executeTakeFirst();
    if (!viewing) return undefined;
    if (viewing.lead_id) await addEvent(trx, viewing.lead_id, 'viewing_cancelled', null, input.userId);
    await after(trx, viewing);
    return viewing;
  });
}

/** How many times the viewing changed since booked (its .ics SEQUENCE). */
export async function changesOf(db: Db, viewing: ViewingRow): Promise<number> {
  if (!viewing.lead_id) return 0;
  const row = await db
    .selectFrom('lead_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('lead_id', '=', viewing.lead_id)
    .where('kind', 'in', ['viewing_rescheduled', 'viewing_cancelled'])
    .where('created_at', '>=', viewing.created_at)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function toViewing(db: Db, row: ViewingRow): Promise<Viewing> {
  const location = await db.selectFrom('viewing_locations').selectAll().where('id', '=', row.location_id).executeTakeFirstOrThrow();
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    place: { marina: location.marina, address: location.address, timeZone: location.time_zone },
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    label: localLabel(row.starts_at, location.time_zone),
    kind: row.kind,
    // A shopper's own bookings are booked or cancelled: a guest's hold is nobody's until confirmed.
    status: row.status === 'booked' || row.status === 'pending' ? 'booked' : 'cancelled',
    leadId: row.lead_id,
  };
}

export async function findViewingOfUser(db: Db, userId: string, id: string): Promise<ViewingRow | undefined> {
  return db.selectFrom('viewings').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function listViewingsOfUser(db: Db, userId: string): Promise<ViewingRow[]> {
  return db.selectFrom('viewings').selectAll().where('user_id', '=', userId).orderBy('starts_at', 'desc').limit(100).execute();
}

/** The booked viewings and sea trials starting on that calendar day of each marina's own clock. */
export async function viewingsOfDay(db: Db, day: string) {
  const rows = await db
    .selectFrom('viewings as v')
    .innerJoin('viewing_locations as l', 'l.id', 'v.location_id')
    .leftJoin('users as u', 'u.id', 'v.user_id')
    .selectAll('v')
    .select([
      sql<string>`coalesce(u.display_name, v.guest_name, '')`.as('display_name'),
      sql<string>`coalesce(u.email, v.guest_email, '')`.as('email'),
    ])
    .where('v.status', '=', 'booked')
    .where(sql<boolean>`(v.starts_at at time zone l.time_zone)::date = ${day}::date`)
    .orderBy('v.starts_at')
    .execute();
  return rows;
}

/**
 * Claims the booked viewings starting within the next 24 hours whose reminder was not sent: the
 * conditional UPDATE marks each once, so two runs of the job (or two replicas) remind once.
 */
export async function claimViewingReminders(trx: Transaction<Database>): Promise<ViewingRow[]> {
  return trx
    .updateTable('viewings')
    .set({ reminder_sent_at: new Date() })
    .where('status', '=', 'booked')
    .where('reminder_sent_at', 'is', null)
    .where('starts_at', '>', sql<Date>`now()`)
    .where('starts_at', '<=', sql<Date>`now() + interval '24 hours'`)
    .returningAll()
    .execute();
}
