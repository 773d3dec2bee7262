import { describe, expect, it } from 'vitest';
import type { VatTreatment } from '@boatshop/contract';
import { decideVat, isNewMeansOfTransport, netOf, type VatCase, type VatDecisionInput, type ViesResult } from './vat-decision.js';

// The whole matrix: a German dealer selling each kind of boat to each kind of buyer. The price is
// 119.000,00 € gross (100.000,00 € net of German VAT at 19 %); France's rate is 20 %.

const GROSS = 11_900_000;
const NET_DE = 10_000_000;
const NEW_BOAT = { lengthCm: 1420, firstUsedOn: '2026-10-01', hoursSailed: 12 };

const BUYERS = {
  'DE consumer': { buyerType: 'consumer', buyerCountry: 'DE', vies: 'not_checked', shipToCountry: 'DE' },
  'FR consumer': { buyerType: 'consumer', buyerCountry: 'FR', vies: 'not_checked', shipToCountry: 'FR' },
  'FR business, VIES valid': { buyerType: 'business', buyerCountry: 'FR', vies: 'valid', shipToCountry: 'FR' },
  'FR business, VIES invalid': { buyerType: 'business', buyerCountry: 'FR', vies: 'invalid', shipToCountry: 'FR' },
  'FR business, VIES unavailable': { buyerType: 'business', buyerCountry: 'FR', vies: 'unavailable', shipToCountry: 'FR' },
  'CH consumer (export)': { buyerType: 'consumer', buyerCountry: 'CH', vies: 'not_checked', shipToCountry: 'CH' },
  'US business (export)': { buyerType: 'business', buyerCountry: 'US', vies: 'not_checked', shipToCountry: 'US' },
} as const satisfies Record<string, Pick<VatDecisionInput, 'buyerType' | 'buyerCountry' | 'shipToCountry'> & { vies: ViesResult }>;

type Buyer = keyof typeof BUYERS;

function input(buyer: Buyer, treatment: VatTreatment, overrides: Partial<VatDecisionInput> = {}): VatDecisionInput {
  const b = BUYERS[buyer];
  return {
    sellerCountry: 'DE',
    ...b,
    treatment,
    boat: NEW_BOAT,
    supplyDate: '2026-11-26',
    grossCents: GROSS,
    sellerRateBasisPoints: 1900,
    destinationRateBasisPoints: b.shipToCountry === 'FR' ? 2000 : b.shipToCountry === 'DE' ? 1900 : null,
    ...overrides,
  };
}

// [buyer, treatment, case, rate, VAT, total, wording contains]
const MATRIX: [Buyer, VatTreatment, VatCase, number, number, number, string][] = [
  ['DE consumer', 'vat_paid_own_stock', 'standard', 1900, 1_900_000, GROSS, ''],
  ['DE consumer', 'margin_scheme', 'margin', 0, 0, GROSS, 'Margin scheme'],
  ['DE consumer', 'new_boat', 'standard', 1900, 1_900_000, GROSS, ''],
  ['DE consumer', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
  ['FR consumer', 'vat_paid_own_stock', 'standard', 2000, GROSS - 9_916_667, GROSS, ''],
  ['FR consumer', 'margin_scheme', 'margin', 0, 0, GROSS, 'Margin scheme'],
  ['FR consumer', 'new_boat', 'new_means_of_transport', 0, 0, NET_DE, 'new means of transport'],
  ['FR consumer', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
  ['FR business, VIES valid', 'vat_paid_own_stock', 'intra_community', 0, 0, NET_DE, 'Intra-Community supply exempt'],
  ['FR business, VIES valid', 'margin_scheme', 'margin', 0, 0, GROSS, 'Margin scheme'],
  ['FR business, VIES valid', 'new_boat', 'new_means_of_transport', 0, 0, NET_DE, 'VAT is due in FR'],
  ['FR business, VIES valid', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
  ['FR business, VIES invalid', 'vat_paid_own_stock', 'standard', 2000, GROSS - 9_916_667, GROSS, ''],
  ['FR business, VIES invalid', 'margin_scheme', 'margin', 0, 0, GROSS, 'Margin scheme'],
  ['FR business, VIES invalid', 'new_boat', 'new_means_of_transport', 0, 0, NET_DE, 'new means of transport'],
  ['FR business, VIES invalid', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
  ['FR business, VIES unavailable', 'vat_paid_own_stock', 'standard', 2000, GROSS - 9_916_667, GROSS, ''],
  ['FR business, VIES unavailable', 'margin_scheme', 'margin', 0, 0, GROSS, 'Margin scheme'],
  ['FR business, VIES unavailable', 'new_boat', 'new_means_of_transport', 0, 0, NET_DE, 'new means of transport'],
  ['FR business, VIES unavailable', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
  ['CH consumer (export)', 'vat_paid_own_stock', 'export', 0, 0, NET_DE, 'Export supply exempt'],
  ['CH consumer (export)', 'margin_scheme', 'margin', 0, 0, GROSS, 'Export supply exempt'],
  ['CH consumer (export)', 'new_boat', 'export', 0, 0, NET_DE, 'Export supply exempt'],
  ['CH consumer (export)', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
  ['US business (export)', 'vat_paid_own_stock', 'export', 0, 0, NET_DE, 'Export supply exempt'],
  ['US business (export)', 'margin_scheme', 'margin', 0, 0, GROSS, 'Export supply exempt'],
  ['US business (export)', 'new_boat', 'export', 0, 0, NET_DE, 'Export supply exempt'],
  ['US business (export)', 'not_vat_paid', 'outside_scope', 0, 0, GROSS, 'imports'],
];

describe('decideVat: a German seller, every buyer, every boat treatment', () => {
  it.each(MATRIX)('%s buying a %s boat: %s at %i bp, VAT %i, pays %i', (buyer, treatment, vatCase, rate, vat, total, wording) => {
    const decision = decideVat(input(buyer, treatment));
    expect(decision.case).toBe(vatCase);
    expect(decision.rateBasisPoints).toBe(rate);
    expect(decision.vatCents).toBe(vat);
    expect(decision.totalCents).toBe(total);
    expect(decision.netCents + decision.vatCents).toBe(decision.totalCents);
    if (wording) expect(decision.wording).toContain(wording);
    else expect(decision.wording).toBe('');
    expect(decision.showsVat).toBe(treatment !== 'margin_scheme');
  });

  it('covers every buyer with every treatment', () => {
    expect(MATRIX).toHaveLength(Object.keys(BUYERS).length * 4);
  });

  it('a new boat sold abroad carries the facts that make it new', () => {
    const decision = decideVat(input('FR consumer', 'new_boat'));
    expect(decision.wording).toContain('length 14,20 m, first used on 01/10/2026, 12 hours sailed');
    expect(decision.categoryCode).toBe('K');
  });

  it('a boat that is no longer new is taxed like any other', () => {
    const old = { lengthCm: 1420, firstUsedOn: '2025-05-01', hoursSailed: 400 };
    const decision = decideVat(input('FR consumer', 'new_boat', { boat: old }));
    expect(decision).toMatchObject({ case: 'standard', rateBasisPoints: 2000, vatCountry: 'FR' });
  });

  it('a deposit follows the treatment of the sale, in proportion', () => {
    const deposit = decideVat(input('FR business, VIES valid', 'vat_paid_own_stock', { grossCents: 1_190_000 }));
    expect(deposit).toMatchObject({ case: 'intra_community', totalCents: 1_000_000, vatCents: 0 });
    const consumerDeposit = decideVat(input('DE consumer', 'vat_paid_own_stock', { grossCents: 1_190_000 }));
    expect(consumerDeposit).toMatchObject({ totalCents: 1_190_000, vatCents: 190_000, netCents: 1_000_000 });
  });

  it('a business with a valid VAT ID in the seller country pays VAT', () => {
    const decision = decideVat(input('DE consumer', 'vat_paid_own_stock', { buyerType: 'business', vies: 'valid' }));
    expect(decision).toMatchObject({ case: 'standard', rateBasisPoints: 1900, vatCents: 1_900_000 });
  });
});

describe('isNewMeansOfTransport', () => {
  const day = '2026-11-26';
  it.each([
    ['never used, 14,20 m', { lengthCm: 1420, firstUsedOn: null, hoursSailed: null }, true],
    ['exactly 7,50 m', { lengthCm: 750, firstUsedOn: null, hoursSailed: null }, false],
    ['length unknown', { lengthCm: null, firstUsedOn: null, hoursSailed: null }, false],
    ['first used 3 months ago to the day', { lengthCm: 1000, firstUsedOn: '2026-08-26', hoursSailed: 500 }, true],
    ['first used 3 months and a day ago, 500 hours', { lengthCm: 1000, firstUsedOn: '2026-08-25', hoursSailed: 500 }, false],
    ['first used a year ago, 100 hours', { lengthCm: 1000, firstUsedOn: '2025-11-26', hoursSailed: 100 }, true],
    ['first used a year ago, 101 hours', { lengthCm: 1000, firstUsedOn: '2025-11-26', hoursSailed: 101 }, false],
    ['first used a year ago, hours unknown', { lengthCm: 1000, firstUsedOn: '2025-11-26', hoursSailed: null }, false],
  ] as const)('%s: %s', (_name, boat, expected) => {
    expect(isNewMeansOfTransport(boat, day)).toBe(expected);
  });

  it('counts three months from the end of a short month correctly', () => {
    expect(isNewMeansOfTransport({ lengthCm: 1000, firstUsedOn: '2026-11-30', hoursSailed: 500 }, '2027-02-28')).toBe(true);
    expect(isNewMeansOfTransport({ lengthCm: 1000, firstUsedOn: '2026-11-30', hoursSailed: 500 }, '2027-03-01')).toBe(false);
  });
});

describe('netOf', () => {
  it('rounds the net inside a gross amount to the cent', () => {
    expect(netOf(11_900_000, 1900)).toBe(10_000_000);
    expect(netOf(100, 2000)).toBe(83);
    expect(netOf(0, 2000)).toBe(0);
  });
});
