import type { OrderStatus } from '@boatshop/contract/constants';

/** Order states in words, as admins and shoppers both read them (badges, history, timeline). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Awaiting payment',
  reserved: 'Reserved',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  disputed: 'Disputed',
  expired: 'Expired',
  failed: 'Payment failed',
};

/**
 * A state's label; a state this build does not know yet (the API may add one) reads as its own
 * name with spaces rather than as nothing.
 */
export function formatOrderStatus(status: string): string {
  return (ORDER_STATUS_LABELS as Record<string, string>)[status] ?? status.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase());
}
