import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalText, englishNumber, ENGLISH_SEPARATORS, germanNumber, GERMAN_SEPARATORS } from './number-text.js';

// Intl.NumberFormat is the reference: the server renders with these helpers, an older release of
// a remote may still format with Intl, and both texts must be the same for hydration.
function intl(locale: 'en-GB' | 'de-DE', value: number, minDigits: number, maxDigits: number): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: minDigits, maximumFractionDigits: maxDigits }).format(value);
}

const DIGITS = fc
  .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
const NUMBERS = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
  fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100),
  // Ties in the shortest decimal form: 0.125, 2.5, 1.005 (stored a hair below, written as a tie).
  fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 1, max: 4 })).map(([n, shift]) => (n * 10 + 5) / 10 ** shift),
);

describe('number text without Intl', () => {
  it('writes what Intl.NumberFormat writes, in English and in German, for any number and decimals', () => {
    fc.assert(
      fc.property(NUMBERS, DIGITS, (value, [minDigits, maxDigits]) => {
        expect(englishNumber(value, minDigits, maxDigits)).toBe(intl('en-GB', value, minDigits, maxDigits));
        expect(germanNumber(value, minDigits, maxDigits)).toBe(intl('de-DE', value, minDigits, maxDigits));
      }),
      { numRuns: 20_000 },
    );
  });

  it('rounds the shortest decimal form half away from zero, as Intl does (not the stored binary value)', () => {
    expect(englishNumber(1.005, 2, 2)).toBe('1.01');
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(englishNumber(2.5, 0, 0)).toBe('3');
    expect(englishNumber(-2.5, 0, 0)).toBe('-3');
    expect(englishNumber(999.995, 2, 2)).toBe('1,000.00');
    expect(germanNumber(1234567.891, 1, 2)).toBe('1.234.567,89');
    expect(germanNumber(7.5, 2, 3)).toBe('7,50');
  });

  it('leaves to Intl what its rules do not cover: -0, a negative that rounds to zero, exponent forms, non-finite values', () => {
    for (const value of [-0, -0.001, 1e21, 5e-7, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(decimalText(value, 2, 2, ENGLISH_SEPARATORS)).toBeNull();
      expect(decimalText(value, 2, 2, GERMAN_SEPARATORS)).toBeNull();
    }
    expect(englishNumber(-0.001, 2, 2)).toBe(intl('en-GB', -0.001, 2, 2));
    expect(germanNumber(1e21, 0, 0)).toBe(intl('de-DE', 1e21, 0, 0));
  });
});
