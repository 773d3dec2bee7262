import { describe, expect, it } from 'vitest';
import { centsToEuroText, parseEuroToCents } from './price';

describe('parseEuroToCents', () => {
  it.each([
    ['0', 0],
    ['19.99', 1999],
    ['0.07', 7],
    ['1250.5', 125_050],
    ['1250,50', 125_050],
    [' 42 ', 4200],
    ['0012.30', 1230],
    ['1.13', 113],
    ['100000000.00', 10_000_000_000],
  ])('reads "%s" as %i cents, exactly', (text, cents) => {
    expect(parseEuroToCents(text)).toEqual({ ok: true, cents });
  });

  it.each(['', '12.345', '-5', '1e5', '12.', '.5', 'ten', '1.000,00'])('refuses "%s" with a message saying how to write it', (text) => {
    expect(parseEuroToCents(text)).toEqual({
      ok: false,
      message: 'Enter the price in euros, with at most 2 decimals (for example 1250.50)',
    });
  });

  it('refuses amounts too long to hold in cents exactly', () => {
    expect(parseEuroToCents('99999999999999')).toEqual({ ok: false, message: 'Price must be at most 100.000.000,00 €' });
  });
});

describe('centsToEuroText', () => {
  it.each([
    [0, '0'],
    [7, '0.07'],
    [1999, '19.99'],
    [125_050, '1250.50'],
    [42_500_000, '425000'],
  ])('shows %i cents as "%s", which reads back the same', (cents, text) => {
    expect(centsToEuroText(cents)).toBe(text);
    expect(parseEuroToCents(text)).toEqual({ ok: true, cents });
  });
});
