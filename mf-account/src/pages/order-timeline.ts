import type { Order, OrderTimelineEntry } from '@boatshop/contract';
import { formatDate, formatPrice } from '@boatshop/state';

export interface TimelineLine {
  at: string;
  text: string;
  /** carrier and tracking number, under the shipping line */
  detail: string | null;
}

/** "Carrier: DHL, tracking number: JJD0001" from whichever of the two the shop gave. */
export function shippingDetail(order: Pick<Order, 'carrier' | 'trackingNumber'>): string | null {
  const parts = [
    order.carrier ? `Carrier: ${order.carrier}` : null,
    order.trackingNumber ? `tracking number: ${order.trackingNumber}` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The API's own words on the steps that moved money for a deposit order.
const TRANSFER_RECEIVED_NOTE = 'Bank transfer received';

function sentence(entry: OrderTimelineEntry, previous: OrderTimelineEntry | undefined): string {
  const on = `on ${formatDate(entry.at)}`;
  const amount = entry.amountCents !== null && entry.amountCents > 0 ? formatPrice(entry.amountCents) : null;
  switch (entry.status) {
    case 'pending':
      return `Ordered ${on}`;
    case 'reserved':
      // The first step is the deposit; a transfer that leaves a balance keeps the order reserved.
      if (entry.note === TRANSFER_RECEIVED_NOTE) return amount ? `Bank transfer received ${amount} ${on}` : `Bank transfer received ${on}`;
      return amount ? `Deposit paid ${amount} ${on}, the boat is reserved for you` : `Deposit paid ${on}, the boat is reserved for you`;
    case 'paid':
      if (previous?.status === 'disputed') return `Payment dispute closed ${on}`;
      if (entry.note === TRANSFER_RECEIVED_NOTE)
        return amount ? `Bank transfer received ${amount} ${on}, paid in full` : `Bank transfer received ${on}, paid in full`;
      return `Paid ${on}`;
    case 'shipped':
      return `Shipped ${on}`;
    case 'delivered':
      return `Delivered ${on}`;
    case 'refunded':
    case 'partially_refunded':
      return amount ? `Refunded ${amount} ${on}` : `Refunded ${on}`;
    case 'cancelled':
      return amount ? `Cancelled ${on}, ${amount} refunded` : `Cancelled ${on}`;
    case 'disputed':
      return `Payment disputed with your bank ${on}`;
    case 'expired':
      return `Expired unpaid ${on}`;
    case 'failed':
      return `Payment failed ${on}`;
    default:
      return `${String(entry.status).replace(/_/g, ' ')} ${on}`;
  }
}

/**
 * The order's life in a shopper's words, oldest first: "Paid on 22/11/2026", "Shipped on …"
 * (with carrier and tracking number), "Refunded 1.000,00 € on …", "Cancelled on …",
 * "Delivered on …"; for a deposit order "Deposit paid 289.000,00 € on …" and
 * "Bank transfer received 2.601.000,00 € on …, paid in full". The API's timeline holds no admin names or ids.
 */
export function shopperTimeline(order: Pick<Order, 'timeline' | 'carrier' | 'trackingNumber'>): TimelineLine[] {
  // `?? []`: this remote may be released before an API that sends the timeline.
  const entries = [...(order.timeline ?? [])].sort((a, b) => a.at.localeCompare(b.at));
  const lastShipped = entries.map((entry) => entry.status).lastIndexOf('shipped');
  return entries.map((entry, index) => ({
    at: entry.at,
    text: sentence(entry, entries[index - 1]),
    detail: index === lastShipped ? shippingDetail(order) : null,
  }));
}
