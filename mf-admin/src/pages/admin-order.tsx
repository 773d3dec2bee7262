import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useParams } from 'react-router-dom';
import type { AdminOrder as AdminOrderData, AdminOrderAction, NamedAddress, OrderEvent } from '@boatshop/contract';
import { formatDate, formatDateTime, formatDay, formatOrderStatus, formatPrice } from '@boatshop/state';
import { OrderActionDialog } from '../components/order-action-dialog';
import { OrderStatusBadge, OverdueBadge } from '../components/order-status-badge';
import { StockShortBadge } from '../components/stock-short-badge';
import { OrderLedgerSection } from '../ledger/order-ledger';
import { OrderVatSection } from '../books/order-vat-section';
import { $adminOrder, clearAdminOrder, loadAdminOrder } from '../orders/admin-orders';
import { orderRef } from '../orders/order-ref';
import { ORDER_ACTION_PERMISSIONS } from '@boatshop/contract/constants';
import { useCan } from '../staff/use-can';
import { StepUpDialog } from '../components/step-up-dialog';
import '../styles.css';
import '../orders/orders.css';

const ACTION_LABELS: Record<AdminOrderAction, string> = {
  ship: 'Mark shipped',
  deliver: 'Mark delivered',
  cancel: 'Cancel order',
  refund: 'Refund',
  record_transfer: 'Record bank transfer',
};

const ACTOR_LABELS: Record<OrderEvent['actor']['type'], string> = {
  admin: 'admin',
  shopper: 'customer',
  provider: 'payment provider',
  system: 'shop',
};

function Address({ title, value }: { title: string; value: NamedAddress }) {
  const { address } = value;
  return (
    <div className="admin-order__address">
      <h3>{title}</h3>
      <address>
        {value.name}
        <br />
        {address.line1}
        <br />
        {address.postal_code} {address.city}
        {address.state ? `, ${address.state}` : ''}
        <br />
        {address.country}
      </address>
    </div>
  );
}

function EventLine({ event }: { event: OrderEvent }) {
  const who = event.actor.name ? `${event.actor.name} (${ACTOR_LABELS[event.actor.type]})` : ACTOR_LABELS[event.actor.type];
  const change =
    event.fromStatus && event.fromStatus !== event.toStatus
      ? `${formatOrderStatus(event.fromStatus)} → ${formatOrderStatus(event.toStatus)}`
      : formatOrderStatus(event.toStatus);
  return (
    <li>
      <time dateTime={event.at}>{formatDateTime(event.at)}</time> <strong>{change}</strong>
      {event.amountCents !== null ? ` · ${formatPrice(event.amountCents)}` : ''} · by {who}
      {event.note ? <span className="admin-muted"> · {event.note}</span> : null}
    </li>
  );
}

function byTime<T extends { at: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.at.localeCompare(b.at));
}

/** /admin/orders/:orderID: one order with everything an admin needs to run it, and the actions its state allows. */
export default function AdminOrder() {
  const { orderID = '' } = useParams();
  const details = useStore($adminOrder);
  const can = useCan();
  const [action, setAction] = useState<AdminOrderAction | null>(null);
  const [notice, setNotice] = useState('');
  // Another order's notice goes when the address names another order: set while rendering (as
  // React advises for state that follows a prop), so the old notice is never painted.
  const [noticeOrderID, setNoticeOrderID] = useState(orderID);
  if (noticeOrderID !== orderID) {
    setNoticeOrderID(orderID);
    setNotice('');
  }
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeadingAfterAction = useRef(false);

  // The action's button may be gone with the state that allowed it, so the dialog cannot hand
  // focus back there; the heading takes it. In an effect, after the dialog has closed.
  useEffect(() => {
    if (action === null && focusHeadingAfterAction.current) {
      focusHeadingAfterAction.current = false;
      headingRef.current?.focus();
    }
  }, [action]);

  useEffect(() => {
    void loadAdminOrder(orderID);
    return clearAdminOrder;
  }, [orderID]);

  const back = (
    <p>
      <Link to="/admin/orders">← All orders</Link>
    </p>
  );

  if (details.status === 'not-found') {
    return (
      <section className="admin-page" aria-labelledby="admin-order-title">
        {back}
        <h1 id="admin-order-title">Order not found</h1>
      </section>
    );
  }

  const order: AdminOrderData | null = details.order;
  return (
    <section className="admin-page admin-order" aria-labelledby="admin-order-title">
      {back}
      <div className="admin-page__header">
        <h1 id="admin-order-title" ref={headingRef} tabIndex={-1}>
          Order {order ? orderRef(order.id) : orderRef(orderID)}
        </h1>
        {order ? (
          <span className="admin-badges">
            <OrderStatusBadge status={order.status} />
            {order.overdue ? <OverdueBadge /> : null}
            <StockShortBadge stockStatus={order.stockStatus} />
          </span>
        ) : null}
      </div>

      <p className="admin-notice" role="status">
        {notice}
      </p>

      {details.status === 'loading' || details.status === 'idle' ? (
        <p className="admin-muted" role="status">
          Loading order…
        </p>
      ) : null}

      {details.status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{details.error}</p>
          <button type="button" className="admin-button-secondary" onClick={() => void loadAdminOrder(orderID)}>
            Try again
          </button>
        </div>
      ) : null}

      {order ? (
        <>
          <dl className="admin-order__facts">
            <div>
              <dt>Order ID</dt>
              <dd className="admin-order-ref">{order.id}</dd>
            </div>
            <div>
              <dt>Ordered</dt>
              <dd>{formatDate(order.createdAt)}</dd>
            </div>
            <div>
              <dt>Customer</dt>
              <dd>
                {order.customer.displayName} <a href={`mailto:${order.customer.email}`}>{order.customer.email}</a>
              </dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>{formatPrice(order.totalCents)}</dd>
            </div>
            {order.depositCents !== null && order.depositCents !== undefined ? (
              <div>
                <dt>Deposit</dt>
                <dd>{formatPrice(order.depositCents)}</dd>
              </div>
            ) : null}
            {order.paymentReference ? (
              <div>
                <dt>Payment reference</dt>
                <dd className="admin-order-ref">{order.paymentReference}</dd>
              </div>
            ) : null}
            {order.balanceDueCents > 0 ? (
              <div>
                <dt>Balance due</dt>
                <dd>{formatPrice(order.balanceDueCents)}</dd>
              </div>
            ) : null}
            {order.balanceDueOn && order.status === 'reserved' ? (
              <div>
                <dt>Due date</dt>
                <dd>
                  {formatDay(order.balanceDueOn)}
                  {order.overdue ? ' (overdue)' : ''}
                </dd>
              </div>
            ) : null}
            {order.refundedCents > 0 ? (
              <div>
                <dt>Refunded</dt>
                <dd>{formatPrice(order.refundedCents)}</dd>
              </div>
            ) : null}
            {order.carrier || order.trackingNumber ? (
              <div>
                <dt>Shipping</dt>
                <dd>
                  {order.carrier ? `Carrier: ${order.carrier}` : ''}
                  {order.carrier && order.trackingNumber ? ', ' : ''}
                  {order.trackingNumber ? `tracking number: ${order.trackingNumber}` : ''}
                </dd>
              </div>
            ) : null}
          </dl>

          <div className="admin-order__actions" role="group" aria-label="Order actions">
            {order.allowedActions.length === 0 ? (
              <p className="admin-muted">No action is possible in this state ({formatOrderStatus(order.status)}).</p>
            ) : null}
            {order.allowedActions
              .filter((allowed) => can(ORDER_ACTION_PERMISSIONS[allowed]))
              .map((allowed) => (
                <button
                  key={allowed}
                  type="button"
                  className={allowed === 'cancel' || allowed === 'refund' ? 'admin-button-danger' : 'bs-button'}
                  onClick={() => setAction(allowed)}
                >
                  {ACTION_LABELS[allowed]}
                </button>
              ))}
          </div>

          <h2>Items</h2>
          <div className="admin-table-scroll" role="region" aria-label="Items" tabIndex={0}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Picture</th>
                  <th scope="col">Name</th>
                  <th scope="col" className="admin-table__number">
                    Unit price
                  </th>
                  <th scope="col" className="admin-table__number">
                    Quantity
                  </th>
                  <th scope="col" className="admin-table__number">
                    Subtotal
                  </th>
                </tr>
              </thead>
              <tbody>
                {order.items.map((item, index) => (
                  <tr key={`${item.productId ?? 'deleted'}-${index}`}>
                    <td>
                      <img className="admin-table__thumb" src={item.thumbnailUrl} alt="" width={64} height={48} loading="lazy" />
                    </td>
                    <th scope="row" className="admin-table__name">
                      {item.productId ? <Link to={`/product/${item.productId}`}>{item.name}</Link> : item.name}
                    </th>
                    <td className="admin-table__number">{formatPrice(item.unitPriceCents)}</td>
                    <td className="admin-table__number">{item.quantity}</td>
                    <td className="admin-table__number">{formatPrice(item.unitPriceCents * item.quantity)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>Addresses</h2>
          <div className="admin-order__addresses">
            <Address title="Shipping" value={order.shipping} />
            <Address title="Billing" value={order.billing} />
          </div>

          <h2>Payments</h2>
          {order.payments.length === 0 ? (
            <p className="admin-muted">No payment yet.</p>
          ) : (
            <ul className="admin-order__list">
              {order.payments.map((payment) => (
                <li key={payment.id}>
                  {formatPrice(payment.amountCents)} by {payment.method === 'card' ? 'card' : 'bank transfer'}, {payment.status}
                  {payment.receivedOn
                    ? `, received ${formatDay(payment.receivedOn)}`
                    : payment.confirmedAt
                      ? ` on ${formatDateTime(payment.confirmedAt)}`
                      : ` (started ${formatDateTime(payment.createdAt)})`}
                  {payment.providerReference ? <span className="admin-muted"> · {payment.providerReference}</span> : null}
                </li>
              ))}
            </ul>
          )}

          <h2>Refunds</h2>
          {order.refunds.length === 0 ? (
            <p className="admin-muted">No refunds.</p>
          ) : (
            <ul className="admin-order__list">
              {order.refunds.map((refund) => (
                <li key={refund.id}>
                  {formatPrice(refund.amountCents)}, {refund.status}, {formatDateTime(refund.createdAt)}
                  {refund.createdBy ? ` by ${refund.createdBy.name ?? ACTOR_LABELS[refund.createdBy.type]}` : ''}
                  {refund.reason ? <span className="admin-muted"> · {refund.reason}</span> : null}
                </li>
              ))}
            </ul>
          )}

          <OrderLedgerSection orderId={order.id} version={order} onChanged={() => void loadAdminOrder(order.id)} />
          <OrderVatSection orderId={order.id} onChanged={() => void loadAdminOrder(order.id)} />

          <h2>Timeline</h2>
          <ol className="admin-order__timeline">
            {byTime(order.events).map((event) => (
              <EventLine key={event.id} event={event} />
            ))}
          </ol>

          <OrderActionDialog
            order={order}
            action={action}
            onClose={() => setAction(null)}
            onDone={(message) => {
              setNotice(message);
              focusHeadingAfterAction.current = true;
              setAction(null);
            }}
          />
        </>
      ) : null}
      <StepUpDialog />
    </section>
  );
}
