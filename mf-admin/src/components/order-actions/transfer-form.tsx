import { useId, useState } from 'react';
import { formatDay, formatPrice } from '@boatshop/state';
import { recordBankTransfer } from '../../orders/admin-orders';
import { orderRef } from '../../orders/order-ref';
import { parseTransferAmount, todayIso } from '../../orders/transfer-amount';
import { centsToEuroText } from '../../products/price';
import { EuroField } from '../euro-field';
import { ActionFrame, TextField, useActionSubmit, type ActionFormProps } from './action-form';

/** Recording a bank transfer against the order's balance; one that completes the total marks it paid. */
export function TransferForm({ titleId, order, onCancel, onDone }: ActionFormProps) {
  const ids = useId();
  const ref = orderRef(order.id);
  const [transferText, setTransferText] = useState(centsToEuroText(order.balanceDueCents));
  const [receivedOn, setReceivedOn] = useState(todayIso);
  const [bankReference, setBankReference] = useState('');
  const { error, working, submit } = useActionSubmit(onDone);
  const transfer = parseTransferAmount(transferText);

  function invalid(): string | null {
    if (!transfer.ok) return transfer.message;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(receivedOn)) return 'Enter the day the transfer was received';
    if (receivedOn > todayIso()) return 'The day received cannot be in the future';
    if (bankReference.trim() === '') return "Enter the bank's reference of the transfer";
    return null;
  }

  return (
    <ActionFrame
      titleId={titleId}
      title={`Record a bank transfer for order ${ref}`}
      confirmLabel={transfer.ok ? `Record ${formatPrice(transfer.cents)}` : 'Record transfer'}
      error={error}
      working={working}
      onCancel={onCancel}
      onSubmit={(event) =>
        void submit(event, invalid() ?? (order.paymentReference ? null : 'This order has no payment reference'), async () => {
          if (!transfer.ok || !order.paymentReference) throw new Error('invalid transfer');
          const updated = await recordBankTransfer({
            reference: order.paymentReference,
            amountCents: transfer.cents,
            receivedOn,
            bankReference,
          });
          return updated.status === 'paid'
            ? `A bank transfer of ${formatPrice(transfer.cents)} was recorded; order ${ref} is paid in full.`
            : `A bank transfer of ${formatPrice(transfer.cents)} was recorded for order ${ref}; ${formatPrice(updated.balanceDueCents)} is still due.`;
        })
      }
    >
      <p>
        Order {ref}, {formatPrice(order.totalCents)}: {formatPrice(order.balanceDueCents)} still due
        {order.balanceDueOn ? ` by ${formatDay(order.balanceDueOn)}` : ''}, payment reference{' '}
        <span className="admin-order-ref">{order.paymentReference}</span>. A transfer that completes the total marks the order paid and
        e-mails the customer.
      </p>
      <EuroField
        id={`${ids}-transfer`}
        label="Amount received"
        value={transferText}
        onChange={setTransferText}
        hint="In euros, up to 2 decimals, as on the bank statement."
      />
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
      <TextField
        id={`${ids}-bank-reference`}
        label="Bank reference"
        value={bankReference}
        onChange={setBankReference}
        maxLength={100}
        required
        hint="The bank's own reference of this transfer: recording it twice records it once."
      />
    </ActionFrame>
  );
}
