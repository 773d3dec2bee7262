import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatPrice } from './format';

// Intl separates the amount from the euro sign with a non-breaking space.
const nbsp = '\u00a0';

describe('formatPrice', () => {
  it('shows euros with a dot for thousands, a comma for decimals and two decimals', () => {
    expect(formatPrice(2_000_000)).toBe(`20.000,00${nbsp}€`);
    expect(formatPrice(123_456_789)).toBe(`1.234.567,89${nbsp}€`);
    expect(formatPrice(5)).toBe(`0,05${nbsp}€`);
    expect(formatPrice(0)).toBe(`0,00${nbsp}€`);
  });

  it("throws 'Invalid price value' for input that is not a number", () => {
    for (const value of ['12', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, {}]) {
      expect(() => formatPrice(value as unknown as number)).toThrow(new Error('Invalid price value'));
    }
  });
});

describe('formatDate', () => {
  it('shows an ISO instant as DD/MM/YYYY', () => {
    expect(formatDate('2024-03-07T10:00:00.000Z', 'UTC')).toBe('07/03/2024');
    expect(formatDate('2024-12-31T23:30:00.000Z', 'UTC')).toBe('31/12/2024');
  });

  it("uses the reader's time zone for the day", () => {
    expect(formatDate('2024-12-31T23:30:00.000Z', 'Europe/Berlin')).toBe('01/01/2025');
  });

  it("throws 'Invalid date value' for text that is not a date", () => {
    expect(() => formatDate('yesterday')).toThrow(new Error('Invalid date value'));
  });
});

describe('formatDateTime', () => {
  it('shows an ISO instant as DD/MM/YYYY HH:mm on a 24-hour clock, in the given time zone', () => {
    expect(formatDateTime('2026-11-22T08:05:00.000Z', 'UTC')).toBe('22/11/2026 08:05');
    expect(formatDateTime('2026-11-22T23:30:00.000Z', 'Europe/Berlin')).toBe('23/11/2026 00:30');
  });

  it("throws 'Invalid date value' for input that does not parse", () => {
    expect(() => formatDateTime('yesterday')).toThrow(new Error('Invalid date value'));
  });
});

describe('formatDay', () => {
  it('writes a calendar day as DD/MM/YYYY whatever the time zone', () => {
    expect(formatDay('2026-12-07')).toBe('07/12/2026');
  });

  it('refuses anything but YYYY-MM-DD', () => {
    expect(() => formatDay('2026-12-07T00:00:00Z')).toThrow('Invalid date value');
    expect(() => formatDay('')).toThrow('Invalid date value');
  });
});
