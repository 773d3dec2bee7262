import { formatOrderStatus } from '@boatshop/state';

/** An order's state as a badge in words; the colour only repeats what the words say. */
export function OrderStatusBadge({ status }: { status: string }) {
  return <span className={`admin-badge admin-badge--${status.replace(/_/g, '-')}`}>{formatOrderStatus(status)}</span>;
}

/** A reserved order whose balance is past its due date: a word, not only a colour. */
export function OverdueBadge() {
  return <span className="admin-badge admin-badge--overdue">Overdue</span>;
}
