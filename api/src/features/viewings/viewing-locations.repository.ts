import type { ViewingLocation, ViewingLocationInput } from '@boatshop/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { DayHours } from './viewings.table.js';

// The marinas' calendars as the shop sets them: address, time zone, lengths, weekly hours and
// the days with their own hours (or closed).

export async function listLocations(db: Db): Promise<ViewingLocation[]> {
  const rows = await db.selectFrom('viewing_locations').selectAll().orderBy('marina').execute();
  const exceptions = rows.length
    ? await db
        .selectFrom('viewing_exceptions')
        .select(['location_id', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'hours', 'note'])
        .where(
          'location_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('day')
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    marina: row.marina,
    address: row.address,
    timeZone: row.time_zone,
    slotMinutes: row.slot_minutes,
    bufferMinutes: row.buffer_minutes,
    seaTrialMinutes: row.sea_trial_minutes,
    weeklyHours: row.weekly_hours,
    exceptions: exceptions
      .filter((exception) => exception.location_id === row.id)
      .map((exception) => ({ day: exception.day, hours: exception.hours as DayHours | null, note: exception.note })),
  }));
}

export async function findLocation(db: Db, id: string): Promise<ViewingLocation | undefined> {
  return (await listLocations(db)).find((location) => location.id === id);
}

export async function insertLocation(db: Db, input: ViewingLocationInput): Promise<string> {
  const { id } = await db
    .insertInto('viewing_locations')
    .values({
      marina: input.marina,
      address: input.address,
      time_zone: input.timeZone,
      slot_minutes: input.slotMinutes,
      buffer_minutes: input.bufferMinutes,
      ...(input.seaTrialMinutes === undefined ? {} : { sea_trial_minutes: input.seaTrialMinutes }),
      weekly_hours: JSON.stringify(input.weeklyHours),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateLocation(db: Db, id: string, input: ViewingLocationInput): Promise<boolean> {
  const row = await db
    .updateTable('viewing_locations')
    .set({
      marina: input.marina,
      address: input.address,
      time_zone: input.timeZone,
      slot_minutes: input.slotMinutes,
      buffer_minutes: input.bufferMinutes,
      ...(input.seaTrialMinutes === undefined ? {} : { sea_trial_minutes: input.seaTrialMinutes }),
      weekly_hours: JSON.stringify(input.weeklyHours),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setException(db: Db, locationId: string, day: string, hours: DayHours | null, note: string): Promise<void> {
  await db
    .insertInto('viewing_exceptions')
    .values({ location_id: locationId, day, hours: hours === null ? null : JSON.stringify(hours), note })
    .onConflict((oc) =>
      oc.constraint('viewing_exceptions_day_key').doUpdateSet({ hours: hours === null ? null : JSON.stringify(hours), note }),
    )
    .execute();
}

export async function removeException(db: Db, locationId: string, day: string): Promise<void> {
  await db.deleteFrom('viewing_exceptions').where('location_id', '=', locationId).where('day', '=', day).execute();
}
