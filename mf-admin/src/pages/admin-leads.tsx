import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useSearchParams } from 'react-router-dom';
import { LEAD_STATES, type LeadState } from '@boatshop/contract/constants';
import { formatDate, formatDateTime } from '@boatshop/state';
import { $funnel, $leads, loadFunnel, loadLeads, waitsTooLong } from '../leads/admin-leads';
import { LEAD_STATE_NAMES } from '../leads/lead-state-names';
import '../styles.css';
import '../orders/orders.css';
import '../leads/leads.css';

function stateFrom(value: string | null): LeadState | '' {
  return (LEAD_STATES as readonly string[]).includes(value ?? '') ? (value as LeadState) : '';
}

/** The funnel per month: enquiries → viewings → offers → orders. */
function Funnel() {
  const months = useStore($funnel);
  useEffect(() => {
    void loadFunnel();
  }, []);
  if (months.length === 0) return null;
  return (
    <div className="admin-table-scroll" role="region" aria-labelledby="admin-funnel-caption" tabIndex={0}>
      <table className="admin-table admin-funnel">
        <caption id="admin-funnel-caption">Funnel per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col" className="admin-table__number">
              Enquiries
            </th>
            <th scope="col" className="admin-table__number">
              Viewings
            </th>
            <th scope="col" className="admin-table__number">
              Offers
            </th>
            <th scope="col" className="admin-table__number">
              Orders
            </th>
          </tr>
        </thead>
        <tbody>
          {months.map((month) => (
            <tr key={month.month}>
              <th scope="row">{`${month.month.slice(5)}/${month.month.slice(0, 4)}`}</th>
              <td className="admin-table__number">{month.enquiries}</td>
              <td className="admin-table__number">{month.viewings}</td>
              <td className="admin-table__number">{month.offers}</td>
              <td className="admin-table__number">{month.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /admin/leads: every confirmed enquiry with its state, boat, buyer and last activity, filtered by
 * state or "waiting for an answer" and searched by boat, name or e-mail (kept in the address, so
 * going back from a lead returns to the same list). A buyer waiting more than a day stands out.
 */
export default function AdminLeads() {
  const [params, setParams] = useSearchParams();
  const state = stateFrom(params.get('state'));
  const q = params.get('q') ?? '';
  const unanswered = params.get('unanswered') === '1';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useStore($leads);
  const [search, setSearch] = useState(q);

  useEffect(() => {
    void loadLeads({ state, q, unanswered, page });
  }, [state, q, unanswered, page]);

  function setFilter(next: Partial<{ state: LeadState | ''; q: string; unanswered: boolean; page: number }>) {
    const merged = { state, q, unanswered, page: 1, ...next };
    const search = new URLSearchParams();
    if (merged.state) search.set('state', merged.state);
    if (merged.unanswered) search.set('unanswered', '1');
    if (merged.q.trim()) search.set('q', merged.q.trim());
    if (merged.page > 1) search.set('page', String(merged.page));
    setParams(search);
  }

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilter({ q: search });
  }

  const leads = list.page?.data ?? [];
  const pages = list.page ? Math.max(1, Math.ceil(list.page.total / list.page.pageSize)) : 1;

  return (
    <section className="admin-page" aria-labelledby="admin-leads-title">
      <div className="admin-page__header">
        <h1 id="admin-leads-title">Leads</h1>
        <Link to="/admin/viewings">Viewings and marina calendars</Link>
      </div>
      <Funnel />
      <div className="admin-filters">
        <div className="bs-field">
          <label htmlFor="admin-leads-state">State</label>
          <select id="admin-leads-state" value={state} onChange={(event) => setFilter({ state: stateFrom(event.target.value) })}>
            <option value="">All</option>
            {LEAD_STATES.map((value) => (
              <option key={value} value={value}>
                {LEAD_STATE_NAMES[value]}
              </option>
            ))}
          </select>
        </div>
        <label className="admin-choice">
          <input type="checkbox" checked={unanswered} onChange={(event) => setFilter({ unanswered: event.target.checked })} />
          Waiting for an answer
        </label>
        <form role="search" className="admin-filters__search" onSubmit={submitSearch}>
          <div className="bs-field">
            <label htmlFor="admin-leads-q">Boat, buyer or e-mail</label>
            <input id="admin-leads-q" type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
          </div>
          <button type="submit" className="bs-button">
            Search
          </button>
        </form>
      </div>

      {list.status === 'loading' || list.status === 'idle' ? (
        <p className="admin-muted" role="status">
          Loading leads…
        </p>
      ) : null}
      {list.status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{list.error}</p>
        </div>
      ) : null}
      {list.status === 'ready' && leads.length === 0 ? <p>No leads match.</p> : null}

      {leads.length > 0 ? (
        <div className="admin-table-scroll" role="region" aria-labelledby="admin-leads-caption" tabIndex={0}>
          <table className="admin-table">
            <caption id="admin-leads-caption" className="admin-visually-hidden">
              Leads, latest activity first
            </caption>
            <thead>
              <tr>
                <th scope="col">Boat</th>
                <th scope="col">Buyer</th>
                <th scope="col">State</th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {leads.map((lead) => {
                const late = waitsTooLong(lead.awaitingReplySince);
                return (
                  <tr key={lead.id} className={late ? 'admin-lead--late' : undefined}>
                    <th scope="row" className="admin-table__name">
                      <Link to={`/admin/leads/${lead.id}`}>{lead.productName}</Link>
                    </th>
                    <td>
                      {lead.buyerName}
                      <br />
                      <span className="admin-muted">{lead.email}</span>
                    </td>
                    <td>
                      <span className="admin-badges">
                        <span className={`admin-badge admin-badge--lead-${lead.state}`}>{LEAD_STATE_NAMES[lead.state]}</span>
                        {late ? <span className="admin-badge admin-badge--failed">Unanswered for over a day</span> : null}
                      </span>
                    </td>
                    <td>
                      <time dateTime={lead.lastActivityAt}>{formatDateTime(lead.lastActivityAt)}</time>
                      <br />
                      <span className="admin-muted">since {formatDate(lead.createdAt)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {pages > 1 ? (
        <nav className="admin-pages" aria-label="Pages">
          <button type="button" className="admin-button-secondary" disabled={page <= 1} onClick={() => setFilter({ page: page - 1 })}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="admin-button-secondary" disabled={page >= pages} onClick={() => setFilter({ page: page + 1 })}>
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}
