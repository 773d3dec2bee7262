import { useId, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { UnmatchedPayment } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { formatDateTime, formatPrice } from '@boatshop/state';
import { $unmatchedPayments, resolveUnmatchedPayment } from '../orders/admin-orders';
import { ModalDialog } from './modal-dialog';

/** The API's reason codes in words; a code this build does not know is shown as it is. */
const REASONS: Record<string, string> = {
  no_order: 'No order matches this payment.',
  amount_mismatch: "The amount differs from the order's total.",
  order_closed: 'The order was already closed (cancelled or expired) when the money arrived.',
};

function amountOf(payment: UnmatchedPayment): string {
  return payment.currency.toLowerCase() === 'eur'
    ? formatPrice(payment.amountCents)
    : `${(payment.amountCents / 100).toFixed(2)} ${payment.currency.toUpperCase()}`;
}

/** Lists the payments the provider reported without an order; each can be marked resolved once dealt with. */
export function UnmatchedPaymentsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  return (
    <ModalDialog open={open} onClose={onClose} labelledBy={titleId}>
      <UnmatchedPaymentsList titleId={titleId} onClose={onClose} />
    </ModalDialog>
  );
}

function UnmatchedPaymentsList({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const { payments } = useStore($unmatchedPayments);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function resolve(payment: UnmatchedPayment) {
    setBusy(payment.id);
    setError(null);
    try {
      await resolveUnmatchedPayment(payment.id);
    } catch (cause) {
      setError(
        isApiError(cause) && cause.status > 0 && cause.status < 500
          ? cause.message
          : 'The payment could not be marked resolved. Please try again.',
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="admin-form">
      <h2 id={titleId} className="admin-dialog__title">
        Payments without an order
      </h2>
      <p className="admin-muted">
        The payment provider reported these payments, but no order matches them. Refund them at the provider or match them by hand, then
        mark them resolved.
      </p>
      {error ? (
        <p className="bs-error admin-errors" role="alert">
          {error}
        </p>
      ) : null}
      {payments.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="admin-unmatched">
          {payments.map((payment) => (
            <li key={payment.id} className="admin-unmatched__item">
              <p>
                <strong>{amountOf(payment)}</strong> received{' '}
                <time dateTime={payment.receivedAt}>{formatDateTime(payment.receivedAt)}</time>
              </p>
              <p className="admin-muted">
                Provider reference {payment.providerReference}. {REASONS[payment.reason] ?? payment.reason}
              </p>
              {payment.resolvedAt ? (
                <p>
                  Resolved <time dateTime={payment.resolvedAt}>{formatDateTime(payment.resolvedAt)}</time>
                </p>
              ) : (
                <button type="button" className="admin-button-secondary" disabled={busy !== null} onClick={() => void resolve(payment)}>
                  {busy === payment.id ? 'Saving…' : 'Mark resolved'}
                  <span className="admin-visually-hidden"> {payment.providerReference}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="admin-form__actions">
        <button type="button" className="admin-button-secondary" onClick={onClose} data-initial-focus>
          Close
        </button>
      </div>
    </div>
  );
}
