import { describe, expect, it } from 'vitest';
import { decodeStripeForm, FormDecodeError } from './stripe-form.js';

describe('decodeStripeForm', () => {
  it('nests bracketed keys into objects and indexed or empty brackets into arrays', () => {
    const body =
      'amount=1000&metadata[orderId]=o-1&payment_method_types[0]=card&expand[]=a&expand[]=b' +
      '&payment_method_data[billing_details][address][line1]=1%20Harbour%20Road';

    expect(decodeStripeForm(body)).toEqual({
      amount: '1000',
      metadata: { orderId: 'o-1' },
      payment_method_types: ['card'],
      expand: ['a', 'b'],
      payment_method_data: { billing_details: { address: { line1: '1 Harbour Road' } } },
    });
  });

  it('reads percent-encoded brackets the same as plain ones', () => {
    expect(decodeStripeForm('metadata%5BorderId%5D=o-2')).toEqual({ metadata: { orderId: 'o-2' } });
  });

  it('rejects a key that is both a value and an object, and malformed brackets', () => {
    expect(() => decodeStripeForm('metadata=x&metadata[a]=y')).toThrow(FormDecodeError);
    expect(() => decodeStripeForm('metadata[a=y')).toThrow(FormDecodeError);
    expect(() => decodeStripeForm('[a]=y')).toThrow(FormDecodeError);
  });
});
