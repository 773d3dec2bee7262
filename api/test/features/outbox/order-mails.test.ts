import { describe, expect, it } from 'vitest';
import { mailForTransition } from '../../../src/features/outbox/order-mails.js';

describe('which e-mail a change of an order sends', () => {
  it('tells the shopper of each step once', () => {
    expect(mailForTransition('pending', 'paid')).toBe('order_confirmation');
    expect(mailForTransition('reserved', 'paid')).toBe('order_confirmation');
    expect(mailForTransition('pending', 'reserved')).toBe('deposit_received');
    expect(mailForTransition('paid', 'shipped')).toBe('order_shipped');
    expect(mailForTransition('shipped', 'delivered')).toBe('order_delivered');
    expect(mailForTransition('paid', 'cancelled', 1000)).toBe('order_cancelled');
    expect(mailForTransition('pending', 'cancelled')).toBeNull();
  });

  it('sends nothing when a dispute closed in the shop favour puts the order back where it was', () => {
    for (const back of ['reserved', 'paid', 'shipped', 'delivered', 'partially_refunded'] as const) {
      expect(mailForTransition('disputed', back), back).toBeNull();
    }
  });

  it('tells the shopper of a lost dispute as a refund of the amount taken back', () => {
    expect(mailForTransition('disputed', 'refunded', 1_000_000)).toBe('order_refunded');
    expect(mailForTransition('disputed', 'partially_refunded', 500)).toBe('order_refunded');
  });
});
