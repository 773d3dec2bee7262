import { describe, expect, it } from 'vitest';
import { parseRefundAmount } from './refund-amount';

describe('parseRefundAmount', () => {
  it('reads euros with a dot or a comma into exact cents', () => {
    expect(parseRefundAmount('1000', 2_000_000)).toEqual({ ok: true, cents: 100_000 });
    expect(parseRefundAmount('19.99', 2_000_000)).toEqual({ ok: true, cents: 1_999 });
    expect(parseRefundAmount(' 0,5 ', 2_000_000)).toEqual({ ok: true, cents: 50 });
    expect(parseRefundAmount('20000', 2_000_000)).toEqual({ ok: true, cents: 2_000_000 });
  });

  it('refuses text that is not an amount in euros with at most 2 decimals', () => {
    for (const text of ['', 'abc', '1.999', '-5', '1e3', '1.000,00']) {
      expect(parseRefundAmount(text, 2_000_000)).toEqual({
        ok: false,
        message: 'Enter the amount in euros, with at most 2 decimals (for example 1000.50)',
      });
    }
  });

  it('refuses nothing at all and more than can still be refunded, naming the limit', () => {
    expect(parseRefundAmount('0', 2_000_000)).toEqual({ ok: false, message: 'Enter an amount above 0,00 €' });
    expect(parseRefundAmount('20000.01', 2_000_000)).toEqual({ ok: false, message: 'At most 20.000,00\u00a0€ can be refunded' });
  });
});
