import { useEffect, useState, type FormEvent } from 'react';
import type { LedgerEntry, OrderLedger } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { formatDay, formatPrice } from '@boatshop/state';
import { client } from '../api';
import './order-ledger.css';

// The order's money ledger for the admin: every movement with the running balance, what is at
// risk in a dispute, and the form to record money sent back by the shop's bank.

const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  card_capture: 'Card payment',
  bank_transfer_in: 'Bank transfer received',
  card_refund: 'Refund to card',
  bank_refund_out: 'Bank refund sent',
  dispute_opened: 'Dispute opened',
  dispute_won: 'Dispute won',
  dispute_lost: 'Dispute lost',
  write_off: 'Written off',
};

function errorText(error: unknown): string {
  return isApiError(error) ? error.message : 'The ledger could not be loaded. Try again.';
}

/** Euros typed by the admin ("1.234,56" or "1234.56") as cents; null when not a positive amount. */
export function euroInputToCents(text: string): number | null {
  const cleaned = text.replace(/[€\s]/g, '');
  const normalised = /,\d{1,2}$/.test(cleaned) ? cleaned.replace(/\./g, '').replace(',', '.') : cleaned.replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(normalised)) return null;
  const cents = Math.round(Number(normalised) * 100);
  return Number.isSafeInteger(cents) && cents > 0 ? cents : null;
}

function BankRefundForm({ orderId, onRecorded }: { orderId: string; onRecorded: (ledger: OrderLedger) => void }) {
  const [amount, setAmount] = useState('');
  const [day, setDay] = useState(new Date().toISOString().slice(0, 10));
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const cents = euroInputToCents(amount);
    if (cents === null) return setError('Enter the amount sent back, in euros.');
    if (!reference.trim()) return setError("Enter the bank's reference of the transfer.");
    setBusy(true);
    setError(null);
    try {
      const body = {
        amountCents: cents,
        refundedOn: day,
        bankReference: reference.trim(),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      };
      onRecorded(await client.admin.ledger.bankRefund(orderId, body));
      setAmount('');
      setReference('');
      setReason('');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="admin-ledger__bank-refund" onSubmit={submit} aria-label="Record a bank refund">
      <h3>Record a bank refund</h3>
      <label>
        Amount (€) <input name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} required />
      </label>
      <label>
        Sent on <input name="refundedOn" type="date" value={day} onChange={(e) => setDay(e.target.value)} required />
      </label>
      <label>
        Bank reference <input name="bankReference" value={reference} onChange={(e) => setReference(e.target.value)} required />
      </label>
      <label>
        Reason <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error ? (
        <p role="alert" className="admin-error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Recording…' : 'Record bank refund'}
      </button>
    </form>
  );
}

/** Mounted on the admin order page under the order's details; `version` reloads it after an action. */
export function OrderLedgerSection({ orderId, version = 0, onChanged }: { orderId: string; version?: unknown; onChanged?: () => void }) {
  const [ledger, setLedger] = useState<OrderLedger | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client.admin.ledger.get(orderId).then(
      (loaded) => {
        if (!live) return;
        setLedger(loaded);
        setError(null);
      },
      (caught: unknown) => {
        if (live) setError(errorText(caught));
      },
    );
    return () => {
      live = false;
    };
  }, [orderId, version]);

  if (error)
    return (
      <p role="alert" className="admin-error">
        {error}
      </p>
    );
  if (!ledger) return <p className="admin-muted">Loading the ledger…</p>;
  const { money, entries } = ledger;
  return (
    <section className="admin-ledger" aria-labelledby="admin-ledger-title">
      <h2 id="admin-ledger-title">Ledger</h2>
      {money.atRiskCents > 0 ? (
        <p className="admin-ledger__at-risk" role="status">
          Money at risk: {formatPrice(money.atRiskCents)} is disputed at the cardholder&apos;s bank.
        </p>
      ) : null}
      <dl className="admin-ledger__figures">
        <dt>Received</dt>
        <dd>{formatPrice(money.receivedCents)}</dd>
        <dt>Refunded</dt>
        <dd>{formatPrice(money.refundedCents)}</dd>
        <dt>Money at risk</dt>
        <dd>{formatPrice(money.atRiskCents)}</dd>
        <dt>Lost in disputes</dt>
        <dd>{formatPrice(money.lostCents)}</dd>
        <dt>Held</dt>
        <dd>{formatPrice(money.heldCents)}</dd>
        <dt>Owed</dt>
        <dd>{formatPrice(money.owedCents)}</dd>
        {money.refundsInFlightCents > 0 ? (
          <>
            <dt>Refunds in progress</dt>
            <dd>{formatPrice(money.refundsInFlightCents)}</dd>
          </>
        ) : null}
      </dl>
      {entries.length === 0 ? (
        <p className="admin-muted">No money has moved on this order.</p>
      ) : (
        <table className="admin-table admin-ledger__table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Movement</th>
              <th scope="col">Reference</th>
              <th scope="col">Amount</th>
              <th scope="col">Balance</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDay(entry.bookedOn)}</td>
                <td>
                  {KIND_LABELS[entry.kind]}
                  {entry.note ? <span className="admin-muted"> · {entry.note}</span> : null}
                </td>
                <td className="admin-muted">{entry.reference}</td>
                <td>{formatPrice(entry.amountCents)}</td>
                <td>{formatPrice(entry.balanceCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {money.heldCents - money.refundsInFlightCents > 0 ? (
        <BankRefundForm
          orderId={orderId}
          onRecorded={(updated) => {
            setLedger(updated);
            onChanged?.();
          }}
        />
      ) : null}
    </section>
  );
}
