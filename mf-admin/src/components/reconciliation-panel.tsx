import { useEffect, useState } from 'react';
import type { ReconciliationAlert } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { formatPrice } from '@boatshop/state';
import { Link } from 'react-router-dom';
import { client } from '../api';
import { useCan } from '../staff/use-can';
import './stock-short-badge.css';

const KINDS: Record<string, string> = {
  card_capture: 'Card payment',
  card_refunds: 'Card refunds',
  bank_in: 'Bank transfers in',
  bank_out: 'Bank refunds out',
};

const messageOf = (cause: unknown, fallback: string) =>
  isApiError(cause) && cause.status > 0 && cause.status < 500 ? cause.message : fallback;

/** The orders page's entry to the reconciliation: a button that opens the panel (loaded only then). */
export function ReconciliationButton() {
  const [open, setOpen] = useState(false);
  if (!useCan()('ledger.read')) return null;
  return open ? (
    <ReconciliationPanel />
  ) : (
    <button type="button" className="admin-button-secondary" onClick={() => setOpen(true)}>
      Reconciliation
    </button>
  );
}

/**
 * The ledger's reconciliation on the orders page: the open differences between orders' ledgers and
 * the provider's or the bank's records, a button to compare now, and each alert resolved with a reason.
 */
export function ReconciliationPanel() {
  const can = useCan();
  const [alerts, setAlerts] = useState<ReconciliationAlert[]>([]);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mayRead = can('ledger.read');
  const mayWrite = can('reconciliation.write');

  async function load() {
    try {
      setAlerts((await client.admin.reconciliation.list({ open: true })).data);
    } catch (cause) {
      setStatus(messageOf(cause, 'The reconciliation alerts could not be loaded.'));
    }
  }

  useEffect(() => {
    if (!mayRead) return;
    client.admin.reconciliation
      .list({ open: true })
      .then(({ data }) => setAlerts(data))
      .catch((cause: unknown) => setStatus(messageOf(cause, 'The reconciliation alerts could not be loaded.')));
  }, [mayRead]);

  if (!mayRead) return null;

  async function runNow() {
    setBusy(true);
    setStatus(null);
    try {
      const result = await client.admin.reconciliation.run();
      setStatus(
        result.raised === 0
          ? `Compared ${result.checked} orders: no new difference.`
          : `Compared ${result.checked} orders: ${result.raised} new difference${result.raised === 1 ? '' : 's'}.`,
      );
      await load();
    } catch (cause) {
      setStatus(messageOf(cause, 'The reconciliation could not run. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  async function resolve(alert: ReconciliationAlert) {
    const reason = (reasons[alert.id] ?? '').trim();
    if (!reason) {
      setStatus('Say why the difference is settled before resolving it.');
      return;
    }
    setBusy(true);
    try {
      await client.admin.reconciliation.resolve(alert.id, { reason });
      setStatus('Alert resolved.');
      await load();
    } catch (cause) {
      setStatus(messageOf(cause, 'The alert could not be resolved. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-reconciliation" aria-labelledby="admin-reconciliation-title">
      <h2 id="admin-reconciliation-title">Reconciliation</h2>
      {mayWrite ? (
        <button type="button" className="admin-button-secondary" disabled={busy} onClick={() => void runNow()}>
          Reconcile now
        </button>
      ) : null}
      <p role="status">{status}</p>
      {alerts.length === 0 ? (
        <p className="admin-muted">Every order&apos;s ledger agrees with the payment provider and the bank lines.</p>
      ) : (
        <ul className="admin-reconciliation__alerts">
          {alerts.map((alert) => (
            <li key={alert.id} role="alert">
              <span className="admin-badge admin-badge--short">{KINDS[alert.kind] ?? alert.kind}</span>{' '}
              <Link to={`/admin/orders/${alert.orderId}`}>Order {alert.orderId.slice(0, 8).toUpperCase()}</Link>: {alert.detail} (ledger{' '}
              {formatPrice(alert.ledgerCents)}, source {formatPrice(alert.sourceCents)})
              {mayWrite ? (
                <span className="bs-field">
                  <label htmlFor={`resolve-${alert.id}`}>Reason</label>
                  <input
                    id={`resolve-${alert.id}`}
                    value={reasons[alert.id] ?? ''}
                    onChange={(event) => setReasons({ ...reasons, [alert.id]: event.target.value })}
                  />
                  <button type="button" className="admin-button-secondary" disabled={busy} onClick={() => void resolve(alert)}>
                    Resolve
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
