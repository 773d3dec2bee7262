import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useSearchParams } from 'react-router-dom';
import type { InvoiceSummary, VatSummary } from '@boatshop/contract';
import { formatDay, formatPrice } from '@boatshop/state';
import { $invoices, adminInvoicePdfUrl, invoicesCsvUrl, loadInvoices, thisMonth, type Period } from '../invoices/invoices';
import '../styles.css';
import '../invoices/invoices.css';
import { AdminTable } from '../components/admin-table';

const KIND_LABELS: Record<InvoiceSummary['kind'], string> = {
  invoice: 'Invoice',
  advance: 'Advance invoice',
  final: 'Final invoice',
  credit_note: 'Credit note',
};

const CASE_LABELS: Record<string, string> = {
  standard: 'Taxed',
  intra_community: 'Intra-Community (reverse charge)',
  new_means_of_transport: 'New means of transport',
  export: 'Export',
  margin: 'Margin scheme',
  outside_scope: 'Not VAT-paid',
};

const rate = (basisPoints: number) => `${(basisPoints / 100).toFixed(2).replace('.', ',')} %`;

/** The period's VAT per country and rate, and its net amounts as bars. */
function VatSummaryTable({ summary }: { summary: VatSummary }) {
  const widest = Math.max(1, ...summary.rows.map((row) => Math.abs(row.netCents)));
  return (
    <section aria-labelledby="admin-vat-summary-title">
      <h2 id="admin-vat-summary-title">VAT per country and rate</h2>
      {summary.rows.length === 0 ? (
        <p>No invoice in this period.</p>
      ) : (
        <>
          <AdminTable
            label="VAT table"
            columns={[
              { label: 'Country' },
              { label: 'Rate' },
              { label: 'Case' },
              { label: 'Net', amount: true },
              { label: 'VAT', amount: true },
              { label: 'Total', amount: true },
              { label: 'Documents', amount: true },
            ]}
            footer={
              <tr>
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td className="admin-table__amount">{formatPrice(summary.netCents)}</td>
                <td className="admin-table__amount">{formatPrice(summary.vatCents)}</td>
                <td className="admin-table__amount">{formatPrice(summary.totalCents)}</td>
                <td />
              </tr>
            }
          >
            {summary.rows.map((row) => (
              <tr key={`${row.country}-${row.rateBasisPoints}-${row.vatCase}`}>
                <th scope="row">{row.country}</th>
                <td>{rate(row.rateBasisPoints)}</td>
                <td>{CASE_LABELS[row.vatCase] ?? row.vatCase}</td>
                <td className="admin-table__amount">{formatPrice(row.netCents)}</td>
                <td className="admin-table__amount">{formatPrice(row.vatCents)}</td>
                <td className="admin-table__amount">{formatPrice(row.totalCents)}</td>
                <td className="admin-table__amount">{row.documents}</td>
              </tr>
            ))}
          </AdminTable>
          <figure className="admin-vat-chart">
            <figcaption>Net amount per country and rate</figcaption>
            {summary.rows.map((row) => (
              <div key={`${row.country}-${row.rateBasisPoints}-${row.vatCase}`} className="admin-vat-chart__row">
                <span className="admin-vat-chart__label">
                  {row.country} {rate(row.rateBasisPoints)}
                </span>
                <span
                  className="admin-vat-chart__bar"
                  style={{ width: `${Math.max(1, Math.round((Math.abs(row.netCents) * 100) / widest))}%` }}
                  aria-hidden="true"
                />
                <span className="admin-vat-chart__value">{formatPrice(row.netCents)}</span>
              </div>
            ))}
          </figure>
        </>
      )}
    </section>
  );
}

/**
 * /admin/invoices (invoices.read): the invoices and credit notes issued in a period, each
 * downloadable, the period as CSV for the accountant, and its VAT per country and rate (the
 * figures an OSS return needs). The period lives in the address.
 */
export default function AdminInvoices() {
  const [params, setParams] = useSearchParams();
  const fallback = thisMonth();
  const period: Period = { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to };
  const [draft, setDraft] = useState(period);
  const state = useStore($invoices);

  useEffect(() => {
    void loadInvoices(period);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- from and to are the period
  }, [period.from, period.to]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setParams({ from: draft.from, to: draft.to });
  }

  return (
    <section className="admin-page" aria-labelledby="admin-invoices-title">
      <div className="admin-page__header">
        <h1 id="admin-invoices-title">Invoices</h1>
        <a className="bs-button" href={invoicesCsvUrl(period)} download>
          Export CSV
        </a>
      </div>
      <form className="admin-form-row" onSubmit={submit} aria-label="Choose the period">
        <label>
          From <input type="date" required value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </label>
        <label>
          To <input type="date" required value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </label>
        <button type="submit" className="admin-button-secondary">
          Show
        </button>
      </form>
      <p className="admin-muted">
        Issued from {formatDay(period.from)} to {formatDay(period.to)}
      </p>
      {state.status === 'loading' ? <p role="status">Loading…</p> : null}
      {state.status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{state.error}</p>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <>
          {state.invoices.length === 0 ? (
            <p>No invoice or credit note was issued in this period.</p>
          ) : (
            <AdminTable
              label="Invoices and credit notes"
              columns={[
                { label: 'Number' },
                { label: 'Document' },
                { label: 'Issued' },
                { label: 'Order' },
                { label: 'Buyer' },
                { label: 'Net', amount: true },
                { label: 'VAT', amount: true },
                { label: 'Total', amount: true },
                { label: 'PDF' },
              ]}
            >
              {state.invoices.map((invoice) => {
                const sign = invoice.kind === 'credit_note' ? -1 : 1;
                return (
                  <tr key={invoice.id}>
                    <th scope="row">{invoice.number}</th>
                    <td>
                      {KIND_LABELS[invoice.kind]}
                      {invoice.correctsNumber ? ` for ${invoice.correctsNumber}` : ''}
                    </td>
                    <td>{formatDay(invoice.issuedOn)}</td>
                    <td>
                      <Link to={`/admin/orders/${invoice.orderId}`}>{invoice.orderId.slice(0, 8)}</Link>
                    </td>
                    <td>
                      {invoice.buyerCountry}
                      {invoice.buyerVatId ? ` ${invoice.buyerVatId}` : ''}
                    </td>
                    <td className="admin-table__amount">{formatPrice(sign * invoice.netCents)}</td>
                    <td className="admin-table__amount">{formatPrice(sign * invoice.vatCents)}</td>
                    <td className="admin-table__amount">{formatPrice(sign * invoice.totalCents)}</td>
                    <td>
                      <a href={adminInvoicePdfUrl(invoice.id)} download={`${invoice.number}.pdf`}>
                        Download
                      </a>
                    </td>
                  </tr>
                );
              })}
            </AdminTable>
          )}
          <VatSummaryTable summary={state.summary} />
        </>
      ) : null}
    </section>
  );
}
