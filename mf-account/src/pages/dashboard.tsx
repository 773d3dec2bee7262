import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useNavigate } from 'react-router-dom';
import { formatDate, formatOrderStatus, formatPrice } from '@boatshop/state';
import { $orderHistory, fetchOrderHistory } from '../orders/orders';
import { ChangePasswordForm } from '../components/change-password-form';
import { MessagesLink } from '../components/messages-link';
import { EmailVerificationNotice } from '../components/email-verification-notice';
import { SignOutEverywhere } from '../components/sign-out-everywhere';
import '../styles.css';
import './login-form.css';

/**
 * The shopper's home: a note while the e-mail address is unverified, orders past payment (newest
 * first, with their state, each opening its order page), then the password and the sessions on
 * other devices.
 */
export default function Dashboard() {
  const history = useStore($orderHistory);
  const navigate = useNavigate();

  // The history is fetched each time the dashboard opens, so a new order shows at once.
  useEffect(() => {
    void fetchOrderHistory();
  }, []);

  const firstLoad = history.data.length === 0 && (history.status === 'idle' || history.status === 'loading');

  return (
    <section className="account-page" aria-labelledby="account-dashboard-title">
      <EmailVerificationNotice />
      <MessagesLink />
      <h1 id="account-dashboard-title">Order history</h1>
      {firstLoad ? (
        <p className="account-muted" role="status">
          Loading…
        </p>
      ) : history.status === 'ready' && history.data.length === 0 ? (
        <p>You have no orders yet.</p>
      ) : history.data.length > 0 ? (
        <table className="account-table account-table--rows-link">
          <thead>
            <tr>
              <th scope="col">Order Date</th>
              <th scope="col">Order ID</th>
              <th scope="col" className="account-table__amount">
                Amount
              </th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {history.data.map((order) => (
              // The link in the row is what keyboards and screen readers use; the click on the
              // whole row is only a larger target for the mouse.
              <tr key={order.id} onClick={() => navigate(`/order/${order.id}`)}>
                <td>{formatDate(order.createdAt)}</td>
                <td>
                  <Link to={`/order/${order.id}`} className="account-order-link">
                    {order.id}
                  </Link>
                </td>
                <td className="account-table__amount">{formatPrice(order.totalCents)}</td>
                <td>{formatOrderStatus(order.status)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="account-security">
        <ChangePasswordForm />
        <SignOutEverywhere />
      </div>
    </section>
  );
}
