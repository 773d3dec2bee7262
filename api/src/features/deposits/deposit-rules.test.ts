import { describe, expect, it } from 'vitest';
import {
  addDays,
  creditorReference,
  depositCents,
  formatReference,
  isValidCreditorReference,
  orderCreditorReference,
  quoteDeposit,
} from './deposit-rules.js';

const LIMIT = 99_999_999;
const settings = { cardLimitCents: LIMIT, percent: 10, categories: [] as string[], balanceDueDays: 14 };

describe('deposit arithmetic', () => {
  it('is 10 % of the 2.890.000,00 € yacht: 289.000,00 €', () => {
    expect(depositCents(289_000_000, 10, LIMIT)).toBe(28_900_000);
  });

  it('rounds to whole euros, half up', () => {
    expect(depositCents(12_345_678, 10, LIMIT)).toBe(1_234_600); // 123.456,78 € -> 12.345,678 € -> 12.346 €
    expect(depositCents(1_234_499, 10, LIMIT)).toBe(123_400); // 12.344,99 € -> 1.234,499 € -> 1.234 €
    expect(depositCents(1_234_500, 10, LIMIT)).toBe(123_500); // 12.345,00 € -> 1.234,50 € -> 1.235 € (half up)
    expect(depositCents(1_234_501, 10, LIMIT)).toBe(123_500);
    expect(depositCents(15_000, 3, LIMIT)).toBe(500); // 4,50 € -> 5 €
    expect(depositCents(14_999, 3, LIMIT)).toBe(400); // 4,4997 € -> 4 €
  });

  it('is at least 1 € and never more than the total', () => {
    expect(depositCents(100, 10, LIMIT)).toBe(100); // 0,10 € -> 1 € (= the total)
    expect(depositCents(450, 10, LIMIT)).toBe(100);
    expect(depositCents(1_060, 100, LIMIT)).toBe(1_060); // 11 € would be above the 10,60 € total
  });

  it('is never above the card limit, in whole euros', () => {
    // 48.500.000,00 € at 10 % is 4.850.000 €; one card payment carries at most 999.999,99 €.
    expect(depositCents(4_850_000_000, 10, LIMIT)).toBe(99_999_900);
    expect(depositCents(4_850_000_000, 10, 50_000_000)).toBe(50_000_000);
  });

  it('keeps exact cents for totals beyond 2^53', () => {
    expect(depositCents(9_007_199_254_740_993n, 1, Number.MAX_SAFE_INTEGER)).toBe(90_071_992_547_400);
  });
});

describe('quoteDeposit', () => {
  it('requires (and offers) a deposit above the card limit', () => {
    expect(quoteDeposit({ totalCents: 289_000_000, categories: ['yachts'] }, settings)).toEqual({
      totalCents: 289_000_000,
      cardLimitCents: LIMIT,
      depositOffered: true,
      depositRequired: true,
      depositCents: 28_900_000,
      balanceDueDays: 14,
    });
  });

  it('offers none at or below the limit, unless a category asks for it', () => {
    expect(quoteDeposit({ totalCents: LIMIT, categories: ['yachts'] }, settings)).toMatchObject({
      depositOffered: false,
      depositRequired: false,
      depositCents: null,
    });
    expect(
      quoteDeposit({ totalCents: 50_000_000, categories: ['sailing-boats', 'yachts'] }, { ...settings, categories: ['yachts'] }),
    ).toMatchObject({
      depositOffered: true,
      depositRequired: false,
      depositCents: 5_000_000,
    });
  });
});

describe('ISO 11649 creditor reference', () => {
  it('computes the check digits of the standard example', () => {
    expect(creditorReference('539007547034')).toBe('RF18539007547034');
    expect(isValidCreditorReference('RF18539007547034')).toBe(true);
    expect(isValidCreditorReference('RF18 5390 0754 7034')).toBe(true);
    expect(isValidCreditorReference('rf18 5390 0754 7034')).toBe(true);
  });

  it('accepts letters as 10..35', () => {
    const ref = creditorReference('G72UUR');
    expect(ref).toBe('RF45G72UUR');
    expect(isValidCreditorReference(ref)).toBe(true);
  });

  it('refuses a typo, wrong check digits or a malformed reference', () => {
    expect(isValidCreditorReference('RF18539007547035')).toBe(false);
    expect(isValidCreditorReference('RF19539007547034')).toBe(false);
    expect(isValidCreditorReference('RF18539007574034')).toBe(false); // two digits swapped
    expect(isValidCreditorReference('RF18')).toBe(false);
    expect(isValidCreditorReference('XX18539007547034')).toBe(false);
    expect(isValidCreditorReference(`RF18${'1'.repeat(22)}`)).toBe(false);
    expect(() => creditorReference('')).toThrow();
    expect(() => creditorReference('ABC-1')).toThrow();
  });

  it("derives an order's reference from its id: valid, at most 25 characters, the same every time", () => {
    const id = '3f2a9c4e-8b71-4d0a-9e3c-5b6a7d8e9f01';
    const ref = orderCreditorReference(id);
    expect(isValidCreditorReference(ref)).toBe(true);
    expect(ref.length).toBeLessThanOrEqual(25);
    expect(ref).toBe(orderCreditorReference(id));
    expect(ref).not.toBe(orderCreditorReference('ffffffff-ffff-4fff-bfff-ffffffffffff'));
    expect(isValidCreditorReference(orderCreditorReference('ffffffff-ffff-4fff-bfff-ffffffffffff'))).toBe(true);
  });

  it('prints in groups of four', () => {
    expect(formatReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
  });
});

describe('addDays', () => {
  it('counts calendar days in UTC, across months and leap years', () => {
    expect(addDays(new Date('2026-11-23T23:59:00Z'), 14)).toBe('2026-12-07');
    expect(addDays(new Date('2028-02-20T00:00:00Z'), 14)).toBe('2028-03-05');
  });
});
