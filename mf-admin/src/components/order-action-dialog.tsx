import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { formatPrice, isApiError, type AdminOrder, type AdminOrderAction } from '@boatshop/state';
import { cancelOrder, deliverOrder, newRefundKey, refundOrder, shipOrder } from '../orders/admin-orders';
import { orderRef } from '../orders/order-ref';
import { parseRefundAmount } from '../orders/refund-amount';
import { centsToEuroText } from '../products/price';
import { ModalDialog } from './modal-dialog';

interface OrderActionDialogProps {
  order: AdminOrder;
  /** The action to confirm; null when the dialog is closed. */
  action: AdminOrderAction | null;
  onClose: () => void;
  /** Called with a sentence saying what was done, for the page's notice. */
  onDone: (notice: string) => void;
}

/**
 * Every order action asks first, naming the order and the amount at stake. The API's answer
 * (a refused transition says which state refused it) is shown in the dialog, in place.
 */
export function OrderActionDialog({ order, action, onClose, onDone }: OrderActionDialogProps) {
  const titleId = useId();
  return (
    <ModalDialog open={action !== null} onClose={onClose} labelledBy={titleId} className={action === 'refund' || action === 'ship' ? undefined : 'admin-dialog--confirm'}>
      {action ? <ActionForm key={action} titleId={titleId} order={order} action={action} onCancel={onClose} onDone={onDone} /> : null}
    </ModalDialog>
  );
}

function errorMessage(error: unknown): string {
  return isApiError(error) && error.status > 0 && error.status < 500 ? error.message : 'The order could not be changed. Please try again.';
}

function ActionForm({
  titleId,
  order,
  action,
  onCancel,
  onDone,
}: {
  titleId: string;
  order: AdminOrder;
  action: AdminOrderAction;
  onCancel: () => void;
  onDone: (notice: string) => void;
}) {
  const ids = useId();
  const ref = orderRef(order.id);
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [amountText, setAmountText] = useState(centsToEuroText(order.refundableCents));
  const [reason, setReason] = useState('');
  // One key per refund meant: a double click or a retry after a lost answer refunds once;
  // another amount is another refund, with a key of its own.
  const [refundKey, setRefundKey] = useState(newRefundKey);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  const refund = action === 'refund' ? parseRefundAmount(amountText, order.refundableCents) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (refund && !refund.ok) {
      setError(refund.message);
      return;
    }
    setWorking(true);
    setError(null);
    try {
      if (action === 'ship') {
        await shipOrder(order.id, { carrier, trackingNumber });
        onDone(`Order ${ref} was marked shipped.`);
      } else if (action === 'deliver') {
        await deliverOrder(order.id);
        onDone(`Order ${ref} was marked delivered.`);
      } else if (action === 'cancel') {
        await cancelOrder(order.id, reason);
        onDone(`Order ${ref} was cancelled.`);
      } else if (refund?.ok) {
        await refundOrder(order.id, { amountCents: refund.cents, reason, idempotencyKey: refundKey });
        onDone(`${formatPrice(refund.cents)} of order ${ref} was refunded.`);
      }
    } catch (cause) {
      setWorking(false);
      setError(errorMessage(cause));
    }
  }

  const total = formatPrice(order.totalCents);
  let title: string;
  let confirmLabel: string;
  let body: ReactNode;
  if (action === 'ship') {
    title = `Mark order ${ref} shipped?`;
    confirmLabel = 'Mark shipped';
    body = (
      <>
        <p>
          Order {ref}, {total}, is handed over to {order.shipping.name} or a carrier. The customer gets an e-mail.
        </p>
        <div className="admin-field">
          <label htmlFor={`${ids}-carrier`}>Carrier (optional)</label>
          <input id={`${ids}-carrier`} type="text" value={carrier} maxLength={100} onChange={(event) => setCarrier(event.target.value)} autoComplete="off" />
        </div>
        <div className="admin-field">
          <label htmlFor={`${ids}-tracking`}>Tracking number (optional)</label>
          <input id={`${ids}-tracking`} type="text" value={trackingNumber} maxLength={100} onChange={(event) => setTrackingNumber(event.target.value)} autoComplete="off" />
        </div>
      </>
    );
  } else if (action === 'deliver') {
    title = `Mark order ${ref} delivered?`;
    confirmLabel = 'Mark delivered';
    body = (
      <p>
        Order {ref}, {total}, has reached {order.shipping.name}. The customer gets an e-mail.
      </p>
    );
  } else if (action === 'cancel') {
    title = `Cancel order ${ref}?`;
    confirmLabel = 'Cancel order';
    body = (
      <>
        <p>
          {order.refundableCents > 0
            ? `Order ${ref} (${total}) is cancelled and the ${formatPrice(order.refundableCents)} paid is refunded in full.`
            : `Order ${ref} (${total}) is cancelled.`}{' '}
          The customer gets an e-mail.
        </p>
        <div className="admin-field">
          <label htmlFor={`${ids}-reason`}>Reason (optional)</label>
          <input id={`${ids}-reason`} type="text" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} autoComplete="off" />
        </div>
      </>
    );
  } else {
    title = `Refund order ${ref}`;
    confirmLabel = refund?.ok ? `Refund ${formatPrice(refund.cents)}` : 'Refund';
    body = (
      <>
        <p>
          Order {ref}, {total}: up to {formatPrice(order.refundableCents)} can be refunded to the customer&apos;s card.
        </p>
        <div className="admin-field">
          <label htmlFor={`${ids}-amount`}>Amount to refund</label>
          <div className="admin-money">
            <span className="admin-money__prefix" aria-hidden="true">
              €
            </span>
            <input
              id={`${ids}-amount`}
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              value={amountText}
              onChange={(event) => {
                setAmountText(event.target.value);
                setRefundKey(newRefundKey());
              }}
              onFocus={(event) => event.currentTarget.select()}
              required
              aria-describedby={`${ids}-amount-hint`}
            />
          </div>
          <p id={`${ids}-amount-hint`} className="admin-field__hint">
            In euros, up to 2 decimals.
          </p>
        </div>
        <div className="admin-field">
          <label htmlFor={`${ids}-reason`}>Reason (optional)</label>
          <input id={`${ids}-reason`} type="text" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} autoComplete="off" />
        </div>
      </>
    );
  }

  return (
    <form className="admin-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={working}>
      <h2 id={titleId} className="admin-dialog__title">
        {title}
      </h2>
      {body}
      {error ? (
        <p className="admin-errors" role="alert">
          {error}
        </p>
      ) : null}
      <div className="admin-form__actions">
        <button type="submit" className={action === 'cancel' || action === 'refund' ? 'admin-button-danger' : 'button'} disabled={working}>
          {working ? 'Working…' : confirmLabel}
        </button>
        <button type="button" className="admin-button-secondary" onClick={onCancel} data-initial-focus={action === 'ship' || action === 'refund' ? undefined : true}>
          {action === 'cancel' ? 'Keep order' : 'Back'}
        </button>
      </div>
    </form>
  );
}
