import { useEffect, useState } from 'react';
import type { OrderVatStatus } from '@boatshop/contract';
import { isApiError, ROUTE_PATHS } from '@boatshop/contract/client';
import { formatPrice } from '@boatshop/state';
import { client } from '../api';
import { useCan } from '../staff/use-can';

const VIES_WORDS: Record<NonNullable<OrderVatStatus['vies']>, string> = {
  valid: 'confirmed by VIES',
  invalid: 'not valid according to VIES',
  unavailable: 'VIES was unavailable',
  not_checked: 'not checked',
};

/**
 * The order page's VAT section for a business buyer: the VAT ID and what VIES answered at checkout.
 * When VIES could not confirm it, an accountant or owner asks VIES again; once it confirms, the
 * order's invoices are credited and issued again without VAT, and the VAT received is owed back.
 */
export function OrderVatSection({ orderId, onChanged }: { orderId: string; onChanged: () => void }) {
  const can = useCan();
  const [vat, setVat] = useState<OrderVatStatus | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mayRead = can('invoices.read');

  useEffect(() => {
    if (!mayRead) return;
    client
      .request(ROUTE_PATHS.books.adminOrderVat, { params: { id: orderId } })
      .then(setVat)
      .catch(() => setMessage('The VAT details could not be loaded.'));
  }, [orderId, mayRead]);

  if (!mayRead || !vat || vat.buyerType !== 'business') return message ? <p role="alert">{message}</p> : null;

  async function correct() {
    setBusy(true);
    setMessage(null);
    try {
      const done = await client.request(ROUTE_PATHS.books.adminCorrectOrderVat, { params: { id: orderId } });
      const numbers = done.reissued.map((document) => document.number).join(', ');
      setMessage(
        `VIES confirmed ${done.vatId}. Credit notes ${done.creditNotes.map((document) => document.number).join(', ')} ` +
          `cancel the invoices with VAT; ${numbers} replace them. ` +
          (done.owedCents > 0 ? `Refund ${formatPrice(done.owedCents)} of VAT to the buyer.` : 'Nothing is owed back.'),
      );
      setVat(await client.request(ROUTE_PATHS.books.adminOrderVat, { params: { id: orderId } }));
      onChanged();
    } catch (error) {
      setMessage(isApiError(error) ? error.message : 'The VAT could not be corrected. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`order-vat-${orderId}`}>
      <h2 id={`order-vat-${orderId}`}>VAT</h2>
      <dl className="admin-order__facts">
        <div>
          <dt>Buyer&apos;s VAT ID</dt>
          <dd>
            {vat.vatId} ({vat.vies ? VIES_WORDS[vat.vies] : 'not checked'})
          </dd>
        </div>
        {vat.consultationNumber ? (
          <div>
            <dt>VIES consultation number</dt>
            <dd>{vat.consultationNumber}</dd>
          </div>
        ) : null}
        {vat.correction ? (
          <div>
            <dt>VAT owed back after the correction</dt>
            <dd>
              {formatPrice(vat.correction.owedCents)}, refunded {formatPrice(vat.correction.settledCents)}
            </dd>
          </div>
        ) : null}
      </dl>
      {vat.correctable && can('invoices.write') ? (
        <button type="button" className="admin-button-secondary" disabled={busy} onClick={() => void correct()}>
          Ask VIES again and correct the invoices
        </button>
      ) : null}
      {message ? (
        <p className="admin-notice" role="status">
          {message}
        </p>
      ) : null}
    </section>
  );
}
