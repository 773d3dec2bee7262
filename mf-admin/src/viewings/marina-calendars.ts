import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';

export type MarinaCalendar = ResponseOf<typeof ROUTE_PATHS.admin.viewingLocations.list>['data'][number];
export type DayViewing = ResponseOf<typeof ROUTE_PATHS.admin.viewings.day>['data'][number];
type DayHours = [string, string][];

export const WEEKDAYS = [
  ['1', 'Monday'],
  ['2', 'Tuesday'],
  ['3', 'Wednesday'],
  ['4', 'Thursday'],
  ['5', 'Friday'],
  ['6', 'Saturday'],
  ['7', 'Sunday'],
] as const;

export const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? error.details.join(' ') || error.message : fallback;

/** Hours as staff write them: "09:00-12:00, 14:00-18:00"; empty is closed. Null when unreadable. */
export function parseHours(text: string): DayHours | null {
  const trimmed = text.trim();
  if (!trimmed) return [];
  const pairs = trimmed.split(',').map((part) => /^\s*(\d{2}:\d{2})\s*[-–]\s*(\d{2}:\d{2})\s*$/.exec(part));
  if (pairs.some((match) => !match)) return null;
  return pairs.map((match) => [match![1]!, match![2]!]);
}

export const hoursText = (hours: DayHours | null | undefined) => (hours ?? []).map(([from, to]) => `${from}-${to}`).join(', ');

export async function loadCalendars(): Promise<MarinaCalendar[]> {
  return (await client.request(ROUTE_PATHS.admin.viewingLocations.list, {})).data;
}

export async function loadDay(day: string): Promise<DayViewing[]> {
  return (await client.request(ROUTE_PATHS.admin.viewings.day, { query: { day } })).data;
}

export function saveCalendar(calendar: MarinaCalendar) {
  const { id, exceptions: _exceptions, ...input } = calendar;
  void _exceptions;
  return client.request(ROUTE_PATHS.admin.viewingLocations.update, { params: { id }, body: input });
}

export function setException(id: string, day: string, hours: DayHours | null, note: string) {
  return client.request(ROUTE_PATHS.admin.viewingLocations.setException, { params: { id, day }, body: { hours, note } });
}

export function removeException(id: string, day: string) {
  return client.request(ROUTE_PATHS.admin.viewingLocations.removeException, { params: { id, day } });
}
