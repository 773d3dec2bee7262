import { useId, useState } from 'react';
import type { DepositChoice } from '@boatshop/contract';
import { formatPrice } from '@boatshop/state';
import { cancelOrder } from '../../orders/admin-orders';
import { orderRef } from '../../orders/order-ref';
import { ActionFrame, TextField, useActionSubmit, type ActionFormProps } from './action-form';

/**
 * Cancelling an order. A reserved order's cancellation says what becomes of the deposit (refunded
 * or kept) and why; any other refunds what was paid in full.
 */
export function CancelForm({ titleId, order, onCancel, onDone }: ActionFormProps) {
  const ids = useId();
  const ref = orderRef(order.id);
  const total = formatPrice(order.totalCents);
  const reserved = order.status === 'reserved';
  const [reason, setReason] = useState('');
  const [deposit, setDeposit] = useState<DepositChoice | null>(null);
  const { error, working, submit } = useActionSubmit(onDone);

  function invalid(): string | null {
    if (reserved && deposit === null) return 'Choose whether the deposit is refunded or kept';
    if (reserved && reason.trim() === '') return 'Give the reason for cancelling a reserved order';
    return null;
  }

  return (
    <ActionFrame
      titleId={titleId}
      title={`Cancel order ${ref}?`}
      confirmLabel="Cancel order"
      danger
      backLabel="Keep order"
      focusBack
      error={error}
      working={working}
      onCancel={onCancel}
      onSubmit={(event) =>
        void submit(event, invalid(), async () => {
          await cancelOrder(order.id, { reason, deposit: reserved && deposit ? deposit : undefined });
          return reserved
            ? `Order ${ref} was cancelled; the deposit is ${deposit === 'refund' ? 'refunded' : 'kept'}.`
            : `Order ${ref} was cancelled.`;
        })
      }
    >
      {reserved ? (
        <>
          <p>
            Order {ref} ({total}) is reserved: {formatPrice(order.depositCents ?? order.refundableCents)} deposit paid
            {order.balanceDueCents > 0 ? `, ${formatPrice(order.balanceDueCents)} still due` : ''}. Cancelling releases the boat. The
            customer gets an e-mail.
          </p>
          <fieldset className="bs-field admin-choice">
            <legend>The deposit</legend>
            <label>
              <input type="radio" name={`${ids}-deposit`} checked={deposit === 'refund'} onChange={() => setDeposit('refund')} /> Refund the
              deposit ({formatPrice(order.refundableCents)} back to the customer&apos;s card)
            </label>
            <label>
              <input type="radio" name={`${ids}-deposit`} checked={deposit === 'keep'} onChange={() => setDeposit('keep')} /> Keep the
              deposit
            </label>
          </fieldset>
          <TextField id={`${ids}-reason`} label="Reason" value={reason} onChange={setReason} maxLength={500} required />
        </>
      ) : (
        <>
          <p>
            {order.refundableCents > 0
              ? `Order ${ref} (${total}) is cancelled and the ${formatPrice(order.refundableCents)} paid is refunded in full.`
              : `Order ${ref} (${total}) is cancelled.`}{' '}
            The customer gets an e-mail.
          </p>
          <TextField id={`${ids}-reason`} label="Reason (optional)" value={reason} onChange={setReason} maxLength={500} />
        </>
      )}
    </ActionFrame>
  );
}
