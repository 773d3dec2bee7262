import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { useLocation, useParams } from 'react-router-dom';
import type { Order as OrderData } from '@boatshop/contract';
import { formatDate, formatOrderStatus, formatPrice } from '@boatshop/state';
import { $orderDetails, clearOrderDetails, confirmOrderPayment, fetchOrderDetails } from '../orders/orders';
import { BalanceInstructions } from './balance-instructions';
import { OrderInvoices } from './order-invoices';
import { ProFormaLink } from './pro-forma-link';
import { shippingDetail, shopperTimeline } from './order-timeline';
import '../styles.css';
import './order.css';

/** What the payment page puts in the navigation state when the card provider accepted the payment. */
interface CheckoutState {
  paymentReceived?: boolean;
}

function PaymentNotice({ order, paymentReceived }: { order: OrderData; paymentReceived: boolean }) {
  if (order.status === 'pending') {
    return (
      <p className="account-notice" role="status">
        Your payment is not confirmed yet. This page shows it once the card provider has confirmed it.
      </p>
    );
  }
  if (order.status === 'failed') {
    return (
      <p className="account-notice account-notice--error" role="alert">
        The payment for this order failed; nothing was charged.
      </p>
    );
  }
  if (order.status === 'expired') {
    return (
      <p className="account-notice account-notice--error" role="alert">
        This order was not paid in time and has expired; nothing was charged.
      </p>
    );
  }
  if (order.status === 'reserved') {
    return paymentReceived ? (
      <p className="account-notice account-notice--success" role="status">
        Thank you, your deposit was received. The boat is reserved for you until the balance arrives.
      </p>
    ) : null;
  }
  // Any later state (shipped, refunded…) also means the payment arrived.
  return paymentReceived ? (
    <p className="account-notice account-notice--success" role="status">
      Thank you, your payment was received.
    </p>
  ) : null;
}

/** The state, the money given back, and the order's steps in words (Paid on …, Shipped on …). */
function OrderProgress({ order }: { order: OrderData }) {
  const lines = shopperTimeline(order);
  const shipping = shippingDetail(order);
  return (
    <>
      <dl className="account-order-facts">
        <div>
          <dt>State</dt>
          <dd>{formatOrderStatus(order.status)}</dd>
        </div>
        {order.depositCents !== null && order.depositCents !== undefined ? (
          <>
            <div>
              <dt>Deposit</dt>
              <dd>{formatPrice(order.depositCents)}</dd>
            </div>
            <div>
              <dt>Paid so far</dt>
              <dd>{formatPrice(order.paidCents)}</dd>
            </div>
          </>
        ) : null}
        {order.refundedCents > 0 ? (
          <div>
            <dt>Refunded</dt>
            <dd>{formatPrice(order.refundedCents)}</dd>
          </div>
        ) : null}
        {shipping ? (
          <div>
            <dt>Shipping</dt>
            <dd>{shipping}</dd>
          </div>
        ) : null}
      </dl>
      {lines.length > 0 ? (
        <>
          <h2 className="account-order-subtitle">Timeline</h2>
          <ol className="account-timeline">
            {lines.map((line) => (
              <li key={`${line.at}-${line.text}`}>
                {line.text}
                {line.detail ? <span className="account-timeline__detail">{line.detail}</span> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}

export default function Order() {
  const { orderID = '' } = useParams();
  const location = useLocation();
  const paymentReceived = (location.state as CheckoutState | null)?.paymentReceived === true;
  const details = useStore($orderDetails);

  useEffect(() => {
    // Coming from the payment page, the order is paid only once the provider says so: ask until it does.
    if (paymentReceived) void confirmOrderPayment(orderID);
    else void fetchOrderDetails(orderID);
    // Leaving the order page clears the order details.
    return clearOrderDetails;
  }, [orderID, paymentReceived]);

  if (details.status === 'not-found') {
    return (
      <section className="account-page" aria-labelledby="account-order-title">
        <h1 id="account-order-title">Order not found</h1>
      </section>
    );
  }

  const { order } = details;
  return (
    <section className="account-page" aria-labelledby="account-order-title">
      <h1 id="account-order-title">Order {order?.id ?? orderID}</h1>
      {order === null ? (
        details.status === 'loading' || details.status === 'idle' ? (
          <p className="account-muted" role="status">
            {paymentReceived ? 'Confirming your payment…' : 'Loading…'}
          </p>
        ) : null
      ) : (
        <>
          <PaymentNotice order={order} paymentReceived={paymentReceived} />
          <p className="account-muted">Ordered on {formatDate(order.createdAt)}</p>
          <OrderProgress order={order} />
          {order.balance ? <BalanceInstructions balance={order.balance} /> : null}
          {order.balance ? <ProFormaLink orderId={order.id} /> : null}
          <table className="account-table">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Name</th>
                <th scope="col" className="account-table__amount">
                  Price
                </th>
                <th scope="col" className="account-table__amount">
                  Quantity
                </th>
              </tr>
            </thead>
            <tbody>
              {order.items.map((item, index) => (
                <tr key={`${item.productId ?? 'deleted'}-${index}`}>
                  <td>
                    <img className="account-thumbnail" src={item.thumbnailUrl} alt={item.name} width={96} height={64} />
                  </td>
                  <td>{item.name}</td>
                  <td className="account-table__amount">{formatPrice(item.unitPriceCents)}</td>
                  <td className="account-table__amount">{item.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="account-total">
            Total: <strong>{formatPrice(order.totalCents)}</strong>
          </p>
          <OrderInvoices orderId={order.id} status={order.status} />
        </>
      )}
    </section>
  );
}
