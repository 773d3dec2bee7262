import { describe, expect, it } from 'vitest';
import { parseDay, parseEuroCents } from './lead-offers';

describe('parseEuroCents', () => {
  it('reads euros as staff type them', () => {
    expect(parseEuroCents('2.750.000,00')).toBe(275_000_000);
    expect(parseEuroCents('2750000')).toBe(275_000_000);
    expect(parseEuroCents('2.750.000 €')).toBe(275_000_000);
    expect(parseEuroCents('1.234,5')).toBe(123_450);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '2,750,000', '27.50', '1,234', '-5', '1.23.456']) expect(parseEuroCents(text)).toBeNull();
  });
});

describe('parseDay', () => {
  it('turns DD/MM/YYYY into YYYY-MM-DD, and refuses days that do not exist', () => {
    expect(parseDay('10/12/2026')).toBe('2026-12-10');
    expect(parseDay('1/2/2027')).toBe('2027-02-01');
    expect(parseDay('30/02/2027')).toBeNull();
    expect(parseDay('2027-02-01')).toBeNull();
  });
});
