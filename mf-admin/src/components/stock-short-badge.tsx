import './stock-short-badge.css';

/**
 * An order paid for a boat that went to another order meanwhile (stock `short`): money received,
 * boat gone. Words, not only a colour; the title says what to do.
 */
export function StockShortBadge({ stockStatus }: { stockStatus?: string | null }) {
  if (stockStatus !== 'short') return null;
  return (
    <span className="admin-badge admin-badge--short" title="Paid, but the boat went to another order: refund the buyer">
      Boat short
    </span>
  );
}

/** On a catalogue row: how many open orders were paid for this boat without getting it. */
export function ShortOrdersNote({ count }: { count?: number }) {
  if (!count) return null;
  return <span className="admin-badge admin-badge--short">{count === 1 ? '1 paid order short' : `${count} paid orders short`}</span>;
}
