import type { DayHours, WeeklyHours } from './viewings.table.js';

// Viewing slots in a marina's own time zone: its weekly hours and exceptions are wall-clock
// times there, turned into instants here (daylight saving included), so a slot at 10:00 in
// Antibes is 10:00 in Antibes in winter and in summer.

const MINUTE = 60_000;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether the IANA time zone is known to this runtime. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** Whether each pair is "HH:MM"–"HH:MM" with the end after the start, and the pairs do not overlap. */
export function isDayHours(hours: unknown): hours is DayHours {
  if (!Array.isArray(hours)) return false;
  const pairs = hours as unknown[];
  if (!pairs.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((t) => typeof t === 'string' && TIME.test(t)))) {
    return false;
  }
  const sorted = [...(pairs as [string, string][])].sort(([a], [b]) => (a < b ? -1 : 1));
  return sorted.every(([from, to], i) => from < to && (i === 0 || sorted[i - 1]![1] <= from));
}

function wallParts(instant: Date, zone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)!.value;
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** How far the zone's wall clock is ahead of UTC at this instant, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
  const at = Math.floor(instant / 1000) * 1000;
  const p = wallParts(new Date(at), zone);
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - at;
}

/** The instant the zone's wall clock shows `time` on `day` (YYYY-MM-DD, HH:MM). */
export function zonedToUtc(day: string, time: string, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, h, min);
  let guess = wall - offsetAt(wall, zone);
  const second = offsetAt(guess, zone);
  if (wall - second !== guess) guess = wall - second;
  return new Date(guess);
}

/** The zone's calendar day (YYYY-MM-DD) at this instant. */
export function localDay(instant: Date, zone: string): string {
  const p = wallParts(instant, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** DD/MM/YYYY HH:mm on the zone's wall clock, as the pages and e-mails show a viewing. */
export function localLabel(instant: Date, zone: string): string {
  const p = wallParts(instant, zone);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** ISO weekday of a calendar day: 1 Monday … 7 Sunday. */
function weekdayOf(day: string): '1' | '2' | '3' | '4' | '5' | '6' | '7' {
  return String(new Date(`${day}T12:00:00Z`).getUTCDay() || 7) as '1';
}

export interface Availability {
  timeZone: string;
  slotMinutes: number;
  bufferMinutes: number;
  weeklyHours: WeeklyHours;
  /** day (YYYY-MM-DD) to its own hours; null: closed */
  exceptions: Map<string, DayHours | null>;
}

export interface Slot {
  startsAt: Date;
  endsAt: Date;
  /** the end of the time the slot takes, buffer included */
  blockedUntil: Date;
}

/**
 * Every slot the marina's hours offer on `days` calendar days from `fromDay` (its own days):
 * one each slot length plus buffer from each opening, as long as the viewing ends by closing.
 */
export function slotsOf(availability: Availability, fromDay: string, days: number): Slot[] {
  const { timeZone, slotMinutes, bufferMinutes } = availability;
  const slots: Slot[] = [];
  for (let i = 0; i < days; i += 1) {
    const day = addDays(fromDay, i);
    const hours = availability.exceptions.has(day) ? availability.exceptions.get(day) : availability.weeklyHours[weekdayOf(day)];
    for (const [open, close] of hours ?? []) {
      const closing = zonedToUtc(day, close, timeZone).getTime();
      for (let start = zonedToUtc(day, open, timeZone).getTime(); start + slotMinutes * MINUTE <= closing;) {
        slots.push({
          startsAt: new Date(start),
          endsAt: new Date(start + slotMinutes * MINUTE),
          blockedUntil: new Date(start + (slotMinutes + bufferMinutes) * MINUTE),
        });
        start += (slotMinutes + bufferMinutes) * MINUTE;
      }
    }
  }
  return slots;
}

/** The slots that start after `notBefore` and overlap none of the taken ranges. */
export function freeSlots(slots: Slot[], taken: { from: Date; until: Date }[], notBefore: Date): Slot[] {
  return slots.filter(
    (slot) => slot.startsAt > notBefore && !taken.some((range) => range.from < slot.blockedUntil && slot.startsAt < range.until),
  );
}
