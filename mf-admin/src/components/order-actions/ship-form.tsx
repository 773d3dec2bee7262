import { useId, useState } from 'react';
import { formatPrice } from '@boatshop/state';
import { shipOrder } from '../../orders/admin-orders';
import { orderRef } from '../../orders/order-ref';
import { ActionFrame, TextField, useActionSubmit, type ActionFormProps } from './action-form';

export function ShipForm({ titleId, order, onCancel, onDone }: ActionFormProps) {
  const ids = useId();
  const ref = orderRef(order.id);
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const { error, working, submit } = useActionSubmit(onDone);
  return (
    <ActionFrame
      titleId={titleId}
      title={`Mark order ${ref} shipped?`}
      confirmLabel="Mark shipped"
      error={error}
      working={working}
      onCancel={onCancel}
      onSubmit={(event) =>
        void submit(event, null, async () => {
          await shipOrder(order.id, { carrier, trackingNumber });
          return `Order ${ref} was marked shipped.`;
        })
      }
    >
      <p>
        Order {ref}, {formatPrice(order.totalCents)}, is handed over to {order.shipping.name} or a carrier. The customer gets an e-mail.
      </p>
      <TextField id={`${ids}-carrier`} label="Carrier (optional)" value={carrier} onChange={setCarrier} maxLength={100} />
      <TextField
        id={`${ids}-tracking`}
        label="Tracking number (optional)"
        value={trackingNumber}
        onChange={setTrackingNumber}
        maxLength={100}
      />
    </ActionFrame>
  );
}
