import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '@boatshop/contract/constants';
import { formatOrderStatus } from './order-status';

describe('formatOrderStatus', () => {
  it('names every state of the contract in words', () => {
    expect(ORDER_STATUSES.map(formatOrderStatus)).toEqual([
      'Awaiting payment',
      'Reserved',
      'Paid',
      'Shipped',
      'Delivered',
      'Cancelled',
      'Refunded',
      'Partially refunded',
      'Disputed',
      'Expired',
      'Payment failed',
    ]);
  });

  it('reads a state it does not know yet as its own name rather than as nothing', () => {
    expect(formatOrderStatus('on_hold')).toBe('On hold');
  });
});
