import { describe, expect, it } from 'vitest';
import { freeSlots, isDayHours, localLabel, slotsOf, zonedToUtc } from './slots.js';

describe('zonedToUtc', () => {
  it('reads wall-clock times in the marina’s zone, daylight saving included', () => {
    expect(zonedToUtc('2026-12-01', '10:00', 'Europe/Paris').toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(zonedToUtc('2026-07-01', '10:00', 'Europe/Paris').toISOString()).toBe('2026-07-01T08:00:00.000Z');
    expect(zonedToUtc('2026-07-01', '10:00', 'America/New_York').toISOString()).toBe('2026-07-01T14:00:00.000Z');
    expect(localLabel(new Date('2026-07-01T08:00:00Z'), 'Europe/Paris')).toBe('01/07/2026 10:00');
  });
});

describe('slotsOf', () => {
  const antibes = {
    timeZone: 'Europe/Paris',
    slotMinutes: 60,
    bufferMinutes: 30,
    weeklyHours: {
      '2': [
        ['09:00', '12:00'],
        ['14:00', '16:00'],
      ] as [string, string][],
    },
    exceptions: new Map(),
  };

  it('lays slots of the slot length plus buffer from each opening, ending by closing', () => {
    // Tuesday 1 December 2026
    const slots = slotsOf(antibes, '2026-12-01', 1).map((slot) => localLabel(slot.startsAt, 'Europe/Paris'));
    expect(slots).toEqual(['01/12/2026 09:00', '01/12/2026 10:30', '01/12/2026 14:00']);
  });

  it('follows the exceptions: a holiday is closed, a special day has its own hours', () => {
    const closed = { ...antibes, exceptions: new Map([['2026-12-01', null]]) };
    expect(slotsOf(closed, '2026-12-01', 8).map((s) => s.startsAt.toISOString().slice(0, 10))).toEqual(Array(3).fill('2026-12-08'));
    const special = { ...antibes, exceptions: new Map([['2026-12-02', [['10:00', '11:00']] as [string, string][]]]) };
    expect(slotsOf(special, '2026-12-02', 1).map((s) => localLabel(s.startsAt, 'Europe/Paris'))).toEqual(['02/12/2026 10:00']);
  });

  it('leaves out slots taken (buffer included) and those too soon', () => {
    const slots = slotsOf(antibes, '2026-12-01', 1);
    const taken = [{ from: slots[0]!.startsAt, until: slots[0]!.blockedUntil }];
    expect(freeSlots(slots, taken, new Date('2026-11-30T00:00:00Z'))).toEqual(slots.slice(1));
    expect(freeSlots(slots, [], slots[1]!.startsAt)).toEqual(slots.slice(2));
  });
});

describe('isDayHours', () => {
  it('accepts ordered, non-overlapping HH:MM pairs only', () => {
    expect(
      isDayHours([
        ['09:00', '12:00'],
        ['14:00', '18:00'],
      ]),
    ).toBe(true);
    expect(
      isDayHours([
        ['09:00', '12:00'],
        ['11:00', '18:00'],
      ]),
    ).toBe(false);
    expect(isDayHours([['12:00', '09:00']])).toBe(false);
    expect(isDayHours([['9:00', '12:00']])).toBe(false);
  });
});
