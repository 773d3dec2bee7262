import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { AdminOrder, AdminOrderAction, DepositChoice } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { formatDay, formatPrice } from '@boatshop/state';
import { cancelOrder, deliverOrder, newRefundKey, recordBankTransfer, refundOrder, shipOrder } from '../orders/admin-orders';
import { orderRef } from '../orders/order-ref';
import { parseRefundAmount } from '../orders/refund-amount';
import { parseTransferAmount, todayIso } from '../orders/transfer-amount';
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
    <ModalDialog
      open={action !== null}
      onClose={onClose}
      labelledBy={titleId}
      className={action === 'refund' || action === 'ship' || action === 'record_transfer' ? undefined : 'admin-dialog--confirm'}
    >
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
  // Issue 13: a reserved order's cancellation says what becomes of the deposit, and why.
  const reservedCancel = action === 'cancel' && order.status === 'reserved';
  const [deposit, setDeposit] = useState<DepositChoice | null>(null);
  const [transferText, setTransferText] = useState(centsToEuroText(order.balanceDueCents));
  const [receivedOn, setReceivedOn] = useState(todayIso);
  const [bankReference, setBankReference] = useState('');

  const refund = action === 'refund' ? parseRefundAmount(amountText, order.refundableCents) : null;
  const transfer = action === 'record_transfer' ? parseTransferAmount(transferText) : null;

  function invalid(): string | null {
    if (refund && !refund.ok) return refund.message;
    if (reservedCancel && deposit === null) return 'Choose whether the deposit is refunded or kept';
    if (reservedCancel && reason.trim() === '') return 'Give the reason for cancelling a reserved order';
    if (transfer) {
      if (!transfer.ok) return transfer.message;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(receivedOn)) return 'Enter the day the transfer was received';
      if (receivedOn > todayIso()) return 'The day received cannot be in the future';
      if (bankReference.trim() === '') return "Enter the bank's reference of the transfer";
    }
    return null;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = invalid();
    if (problem) {
      setError(problem);
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
        await cancelOrder(order.id, { reason, deposit: reservedCancel && deposit ? deposit : undefined });
        onDone(
          reservedCancel
            ? `Order ${ref} was cancelled; the deposit is ${deposit === 'refund' ? 'refunded' : 'kept'}.`
            : `Order ${ref} was cancelled.`,
        );
      } else if (action === 'record_transfer' && transfer?.ok && order.paymentReference) {
        const updated = await recordBankTransfer({
          reference: order.paymentReference,
          amountCents: transfer.cents,
          receivedOn,
          bankReference,
        });
        onDone(
          updated.status === 'paid'
            ? `A bank transfer of ${formatPrice(transfer.cents)} was recorded; order ${ref} is paid in full.`
            : `A bank transfer of ${formatPrice(transfer.cents)} was recorded for order ${ref}; ${formatPrice(updated.balanceDueCents)} is still due.`,
        );
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
        <div className="bs-field">
          <label htmlFor={`${ids}-carrier`}>Carrier (optional)</label>
          <input
            id={`${ids}-carrier`}
            type="text"
            value={carrier}
            maxLength={100}
            onChange={(event) => setCarrier(event.target.value)}
            autoComplete="off"
          />
        </div>
        <div className="bs-field">
          <label htmlFor={`${ids}-tracking`}>Tracking number (optional)</label>
          <input
            id={`${ids}-tracking`}
            type="text"
            value={trackingNumber}
            maxLength={100}
            onChange={(event) => setTrackingNumber(event.target.value)}
            autoComplete="off"
          />
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
  } else if (action === 'cancel' && reservedCancel) {
    title = `Cancel order ${ref}?`;
    confirmLabel = 'Cancel order';
    const depositPaid = order.depositCents ?? order.refundableCents;
    body = (
      <>
        <p>
          Order {ref} ({total}) is reserved: {formatPrice(depositPaid)} deposit paid
          {order.balanceDueCents > 0 ? `, ${formatPrice(order.balanceDueCents)} still due` : ''}. Cancelling releases the boat. The customer
          gets an e-mail.
        </p>
        <fieldset className="bs-field admin-choice">
          <legend>The deposit</legend>
          <label>
            <input type="radio" name={`${ids}-deposit`} checked={deposit === 'refund'} onChange={() => setDeposit('refund')} /> Refund the
            deposit ({formatPrice(order.refundableCents)} back to the customer&apos;s card)
          </label>
          <label>
            <input type="radio" name={`${ids}-deposit`} checked={deposit === 'keep'} onChange={() => setDeposit('keep')} /> Keep the deposit
          </label>
        </fieldset>
        <div className="bs-field">
          <label htmlFor={`${ids}-reason`}>Reason</label>
          <input
            id={`${ids}-reason`}
            type="text"
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
            autoComplete="off"
            required
          />
        </div>
      </>
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
        <div className="bs-field">
          <label htmlFor={`${ids}-reason`}>Reason (optional)</label>
          <input
            id={`${ids}-reason`}
            type="text"
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
            autoComplete="off"
          />
        </div>
      </>
    );
  } else if (action === 'record_transfer') {
    title = `Record a bank transfer for order ${ref}`;
    confirmLabel = transfer?.ok ? `Record ${formatPrice(transfer.cents)}` : 'Record transfer';
    body = (
      <>
        <p>
          Order {ref}, {total}: {formatPrice(order.balanceDueCents)} still due
          {order.balanceDueOn ? ` by ${formatDay(order.balanceDueOn)}` : ''}, payment reference{' '}
          <span className="admin-order-ref">{order.paymentReference}</span>. A transfer that completes the total marks the order paid and
          e-mails the customer.
        </p>
        <div className="bs-field">
          <label htmlFor={`${ids}-transfer`}>Amount received</label>
          <div className="admin-money">
            <span className="admin-money__prefix" aria-hidden="true">
              €
            </span>
            <input
              id={`${ids}-transfer`}
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              value={transferText}
              onChange={(event) => setTransferText(event.target.value)}
              onFocus={(event) => event.currentTarget.select()}
              required
              aria-describedby={`${ids}-transfer-hint`}
            />
          </div>
          <p id={`${ids}-transfer-hint`} className="bs-hint">
            In euros, up to 2 decimals, as on the bank statement.
          </p>
        </div>
        <div className="bs-field">
          <label htmlFor={`${ids}-received`}>Date received</label>
          <input
            id={`${ids}-received`}
            type="date"
            value={receivedOn}
            max={todayIso()}
            onChange={(event) => setReceivedOn(event.target.value)}
            required
          />
        </div>
        <div className="bs-field">
          <label htmlFor={`${ids}-bank-reference`}>Bank reference</label>
          <input
            id={`${ids}-bank-reference`}
            type="text"
            value={bankReference}
            maxLength={100}
            onChange={(event) => setBankReference(event.target.value)}
            autoComplete="off"
            required
            aria-describedby={`${ids}-bank-reference-hint`}
          />
          <p id={`${ids}-bank-reference-hint`} className="bs-hint">
            The bank&apos;s own reference of this transfer: recording it twice records it once.
          </p>
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
        <div className="bs-field">
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
          <p id={`${ids}-amount-hint`} className="bs-hint">
            In euros, up to 2 decimals.
          </p>
        </div>
        <div className="bs-field">
          <label htmlFor={`${ids}-reason`}>Reason (optional)</label>
          <input
            id={`${ids}-reason`}
            type="text"
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
            autoComplete="off"
          />
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
        <p className="bs-error admin-errors" role="alert">
          {error}
        </p>
      ) : null}
      <div className="admin-form__actions">
        <button
          type="submit"
          className={action === 'cancel' || action === 'refund' ? 'admin-button-danger' : 'bs-button'}
          disabled={working}
        >
          {working ? 'Working…' : confirmLabel}
        </button>
        <button
          type="button"
          className="admin-button-secondary"
          onClick={onCancel}
          data-initial-focus={action === 'ship' || action === 'refund' || action === 'record_transfer' ? undefined : true}
        >
          {action === 'cancel' ? 'Keep order' : 'Back'}
        </button>
      </div>
    </form>
  );
}
