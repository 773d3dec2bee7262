import { formatPrice } from '@boatshop/state';
import { deliverOrder } from '../../orders/admin-orders';
import { orderRef } from '../../orders/order-ref';
import { ActionFrame, useActionSubmit, type ActionFormProps } from './action-form';

export function DeliverForm({ titleId, order, onCancel, onDone }: ActionFormProps) {
  const ref = orderRef(order.id);
  const { error, working, submit } = useActionSubmit(onDone);
  return (
    <ActionFrame
      titleId={titleId}
      title={`Mark order ${ref} delivered?`}
      confirmLabel="Mark delivered"
      focusBack
      error={error}
      working={working}
      onCancel={onCancel}
      onSubmit={(event) =>
        void submit(event, null, async () => {
          await deliverOrder(order.id);
          return `Order ${ref} was marked delivered.`;
        })
      }
    >
      <p>
        Order {ref}, {formatPrice(order.totalCents)}, has reached {order.shipping.name}. The customer gets an e-mail.
      </p>
    </ActionFrame>
  );
}
