import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useSearchParams } from 'react-router-dom';
import { ORDER_STATUSES, type OrderStatus } from '@boatshop/contract/constants';
import { formatDate, formatOrderStatus, formatPrice } from '@boatshop/state';
import { OrderStatusBadge, OverdueBadge } from '../components/order-status-badge';
import { ReconciliationButton } from '../components/reconciliation-panel';
import { StockShortBadge } from '../components/stock-short-badge';
import { UnmatchedPaymentsDialog } from '../components/unmatched-payments-dialog';
import { $adminOrders, $unmatchedPayments, loadAdminOrders, loadMoreAdminOrders, loadUnmatchedPayments } from '../orders/admin-orders';
import { orderRef } from '../orders/order-ref';
import { useCan } from '../staff/use-can';
import '../styles.css';
import '../orders/orders.css';

function statusFrom(value: string | null): OrderStatus | '' {
  return (ORDER_STATUSES as readonly string[]).includes(value ?? '') ? (value as OrderStatus) : '';
}

/** The State filter's extra choice: reserved orders whose balance is past its due date. */
const OVERDUE = 'overdue';

/**
 * /admin/orders: every order but unpaid attempts, newest first, filtered by state (or reserved
 * and overdue) and searched by order id or e-mail. The filter lives in the address
 * (?status=&overdue=1&q=), so going back from an order returns to the same list. The shell gives
 * the layout and the admin guard.
 */
export default function AdminOrders() {
  const [params, setParams] = useSearchParams();
  const status = statusFrom(params.get('status'));
  const q = params.get('q') ?? '';
  const overdue = params.get('overdue') === '1';
  const list = useStore($adminOrders);
  const unmatched = useStore($unmatchedPayments);
  const [search, setSearch] = useState(q);
  const [unmatchedOpen, setUnmatchedOpen] = useState(false);
  const mayReadLedger = useCan()('ledger.read');

  useEffect(() => {
    void loadAdminOrders({ status, q, overdue });
  }, [status, q, overdue]);

  useEffect(() => {
    if (mayReadLedger) void loadUnmatchedPayments();
  }, [mayReadLedger]);

  // The address can change without this form (back button): the field follows it, set while
  // rendering (as React advises for state that follows a prop) rather than one render late.
  const [searchFollows, setSearchFollows] = useState(q);
  if (searchFollows !== q) {
    setSearchFollows(q);
    setSearch(q);
  }

  function setFilter(next: { status?: OrderStatus | ''; q?: string; overdue?: boolean }) {
    const merged = { status, q, overdue, ...next };
    const search = new URLSearchParams();
    if (merged.status) search.set('status', merged.status);
    if (merged.overdue) search.set('overdue', '1');
    if (merged.q.trim()) search.set('q', merged.q.trim());
    setParams(search);
  }

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilter({ q: search });
  }

  const openUnmatched = unmatched.payments.filter((payment) => payment.resolvedAt === null).length;
  const filtered = status !== '' || q !== '' || overdue;

  return (
    <section className="admin-page" aria-labelledby="admin-orders-title">
      <div className="admin-page__header">
        <h1 id="admin-orders-title">Orders</h1>
      </div>

      {openUnmatched > 0 ? (
        <div className="admin-alert" role="alert">
          <p>
            {openUnmatched === 1 ? '1 payment was received without an order.' : `${openUnmatched} payments were received without an order.`}
          </p>
          <button type="button" className="admin-button-secondary" onClick={() => setUnmatchedOpen(true)}>
            Review payments without an order
          </button>
        </div>
      ) : null}

      <div className="admin-filters">
        <div className="bs-field">
          <label htmlFor="admin-orders-status">State</label>
          <select
            id="admin-orders-status"
            value={overdue ? OVERDUE : status}
            onChange={(event) =>
              setFilter(
                event.target.value === OVERDUE
                  ? { status: 'reserved', overdue: true }
                  : { status: statusFrom(event.target.value), overdue: false },
              )
            }
          >
            <option value="">All but unpaid attempts</option>
            {ORDER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {formatOrderStatus(value)}
              </option>
            ))}
            <option value={OVERDUE}>Reserved, balance overdue</option>
          </select>
        </div>
        <form role="search" className="admin-filters__search" onSubmit={submitSearch}>
          <div className="bs-field">
            <label htmlFor="admin-orders-q">Order ID or e-mail</label>
            <input
              id="admin-orders-q"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              autoComplete="off"
            />
          </div>
          <button type="submit" className="bs-button">
            Search
          </button>
        </form>
      </div>

      {list.status === 'loading' || list.status === 'idle' ? (
        <p className="admin-muted" role="status">
          Loading orders…
        </p>
      ) : null}

      {list.status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{list.error}</p>
          <button type="button" className="admin-button-secondary" onClick={() => void loadAdminOrders({ status, q })}>
            Try again
          </button>
        </div>
      ) : null}

      {list.status === 'ready' && list.orders.length === 0 ? <p>{filtered ? 'No orders match.' : 'No orders yet.'}</p> : null}

      {list.orders.length > 0 ? (
        <div className="admin-table-scroll" role="region" aria-labelledby="admin-orders-caption" tabIndex={0}>
          <table className="admin-table">
            <caption id="admin-orders-caption" className="admin-visually-hidden">
              Orders, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Order date</th>
                <th scope="col">Order ID</th>
                <th scope="col">Customer</th>
                <th scope="col" className="admin-table__number">
                  Items
                </th>
                <th scope="col" className="admin-table__number">
                  Total
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.orders.map((order) => (
                <tr key={order.id}>
                  <td>
                    <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                  </td>
                  <th scope="row" className="admin-table__name">
                    <Link to={`/admin/orders/${order.id}`} className="admin-order-ref" title={order.id}>
                      {orderRef(order.id)}
                    </Link>
                  </th>
                  <td>
                    {order.customer.displayName}
                    <br />
                    <span className="admin-muted">{order.customer.email}</span>
                  </td>
                  <td className="admin-table__number">{order.itemCount}</td>
                  <td className="admin-table__number">
                    {formatPrice(order.totalCents)}
                    {order.refundedCents > 0 ? (
                      <>
                        <br />
                        <span className="admin-muted">−{formatPrice(order.refundedCents)} refunded</span>
                      </>
                    ) : null}
                    {order.status === 'reserved' && order.balanceDueCents > 0 ? (
                      <>
                        <br />
                        <span className="admin-muted">{formatPrice(order.balanceDueCents)} due</span>
                      </>
                    ) : null}
                  </td>
                  <td>
                    <span className="admin-badges">
                      <OrderStatusBadge status={order.status} />
                      {order.overdue ? <OverdueBadge /> : null}
                      <StockShortBadge stockStatus={order.stockStatus} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {list.status === 'ready' && list.error ? (
        <p className="bs-error admin-errors" role="alert">
          {list.error}
        </p>
      ) : null}

      {list.status === 'ready' && !list.isLastPage ? (
        <button
          type="button"
          className="admin-button-secondary admin-load-more"
          disabled={list.loadingMore}
          onClick={() => void loadMoreAdminOrders()}
        >
          {list.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      ) : null}

      <UnmatchedPaymentsDialog open={unmatchedOpen} onClose={() => setUnmatchedOpen(false)} />
      <ReconciliationButton />
    </section>
  );
}
