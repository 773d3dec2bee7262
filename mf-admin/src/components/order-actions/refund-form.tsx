import { useId, useState } from 'react';
import { formatPrice } from '@boatshop/state';
import { newRefundKey, refundOrder } from '../../orders/admin-orders';
import { orderRef } from '../../orders/order-ref';
import { parseRefundAmount } from '../../orders/refund-amount';
import { centsToEuroText } from '../../products/price';
import { EuroField } from '../euro-field';
import { ActionFrame, TextField, useActionSubmit, type ActionFormProps } from './action-form';

export function RefundForm({ titleId, order, onCancel, onDone }: ActionFormProps) {
  const ids = useId();
  const ref = orderRef(order.id);
  const [amountText, setAmountText] = useState(centsToEuroText(order.refundableCents));
  const [reason, setReason] = useState('');
  // One key per refund meant: a double click or a retry after a lost answer refunds once;
  // another amount is another refund, with a key of its own.
  const [refundKey, setRefundKey] = useState(newRefundKey);
  const { error, working, submit } = useActionSubmit(onDone);
  const refund = parseRefundAmount(amountText, order.refundableCents);

  return (
    <ActionFrame
      titleId={titleId}
      title={`Refund order ${ref}`}
      confirmLabel={refund.ok ? `Refund ${formatPrice(refund.cents)}` : 'Refund'}
      danger
      error={error}
      working={working}
      onCancel={onCancel}
      onSubmit={(event) =>
        void submit(event, refund.ok ? null : refund.message, async () => {
          if (!refund.ok) throw new Error(refund.message);
          await refundOrder(order.id, { amountCents: refund.cents, reason, idempotencyKey: refundKey });
          return `${formatPrice(refund.cents)} of order ${ref} was refunded.`;
        })
      }
    >
      <p>
        Order {ref}, {formatPrice(order.totalCents)}: up to {formatPrice(order.refundableCents)} can be refunded to the customer&apos;s
        card.
      </p>
      <EuroField
        id={`${ids}-amount`}
        label="Amount to refund"
        value={amountText}
        onChange={(value) => {
          setAmountText(value);
          setRefundKey(newRefundKey());
        }}
        hint="In euros, up to 2 decimals."
      />
      <TextField id={`${ids}-reason`} label="Reason (optional)" value={reason} onChange={setReason} maxLength={500} />
    </ActionFrame>
  );
}
