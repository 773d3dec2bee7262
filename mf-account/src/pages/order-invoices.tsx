import { useEffect, useState } from 'react';
import type { InvoiceSummary } from '@boatshop/contract';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { formatDay, formatPrice } from '@boatshop/state';
import { client } from '../api';

const KIND_LABELS: Record<InvoiceSummary['kind'], string> = {
  invoice: 'Invoice',
  advance: 'Advance payment invoice',
  final: 'Final invoice',
  credit_note: 'Credit note',
};

type State = { status: 'loading' } | { status: 'ready'; invoices: InvoiceSummary[] } | { status: 'failed' };

/**
 * The order's invoices and credit notes, each a PDF the shopper downloads (the same file every
 * time). Asked again when the order's state changes, since a payment or a refund issues one.
 */
export function OrderInvoices({ orderId, status }: { orderId: string; status: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    client
      .request(ROUTE_PATHS.books.orderInvoices, { query: { orderId } })
      .then((answer) => {
        if (current) setState(Array.isArray(answer.data) ? { status: 'ready', invoices: answer.data } : { status: 'failed' });
      })
      .catch(() => {
        if (current) setState({ status: 'failed' });
      });
    return () => {
      current = false;
    };
  }, [orderId, status]);

  if (state.status === 'ready' && state.invoices.length === 0) return null;
  return (
    <section className="account-invoices" aria-labelledby="account-invoices-title">
      <h2 id="account-invoices-title" className="account-order-subtitle">
        Invoices and credit notes
      </h2>
      {state.status === 'loading' ? (
        <p className="account-muted" role="status">
          Loading…
        </p>
      ) : state.status === 'failed' ? (
        <p className="account-notice account-notice--error">The invoices could not be loaded. Please try again later.</p>
      ) : (
        <table className="account-table">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Number</th>
              <th scope="col">Date</th>
              <th scope="col" className="account-table__amount">
                Amount
              </th>
              <th scope="col">PDF</th>
            </tr>
          </thead>
          <tbody>
            {state.invoices.map((invoice) => (
              <tr key={invoice.id}>
                <td>
                  {KIND_LABELS[invoice.kind]}
                  {invoice.correctsNumber ? ` (for invoice ${invoice.correctsNumber})` : ''}
                </td>
                <td>{invoice.number}</td>
                <td>{formatDay(invoice.issuedOn)}</td>
                <td className="account-table__amount">
                  {invoice.kind === 'credit_note' ? '−' : ''}
                  {formatPrice(invoice.totalCents)}
                </td>
                <td>
                  <a href={`/api/invoices/${invoice.id}/pdf`} download={`${invoice.number}.pdf`}>
                    Download {invoice.number}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
