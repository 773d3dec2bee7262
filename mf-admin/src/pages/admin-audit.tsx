import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { useSearchParams } from 'react-router-dom';
import type { AuditExportQuery } from '@boatshop/contract';
import { formatDateTime } from '@boatshop/state';
import { $audit, auditExportUrl, loadAudit } from '../staff/audit';
import { ensureSteppedUp } from '../staff/step-up';
import { useCan } from '../staff/use-can';
import { StepUpDialog } from '../components/step-up-dialog';
import '../styles.css';
import '../staff/staff.css';

const FIELDS = ['actor', 'action', 'from', 'to'] as const;

function changeOf(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/**
 * /admin/audit (owners, accountants): every admin action, newest first, filtered by who, what
 * and days; the filter lives in the address. Export CSV downloads the same filter's rows.
 */
export default function AdminAudit() {
  const [params, setParams] = useSearchParams();
  const filter: AuditExportQuery = Object.fromEntries(FIELDS.map((field) => [field, params.get(field) ?? ''])) as AuditExportQuery;
  const key = FIELDS.map((field) => filter[field]).join('|');
  const { status, entries, nextBefore, error } = useStore($audit);
  const [draft, setDraft] = useState(filter);
  const mayExport = useCan()('exports.run');

  useEffect(() => {
    void loadAudit(filter);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the filter
  }, [key]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setParams(Object.fromEntries(Object.entries(draft).filter(([, value]) => value)) as Record<string, string>);
  }

  return (
    <section className="admin-page" aria-labelledby="admin-audit-title">
      <div className="admin-page__header">
        <h1 id="admin-audit-title">Audit log</h1>
        {mayExport ? (
          <a
            className="bs-button"
            href={auditExportUrl(filter)}
            onClick={(event) => {
              // The export asks for the password again first (step-up), then downloads.
              event.preventDefault();
              void ensureSteppedUp().then(
                () => window.location.assign(auditExportUrl(filter)),
                () => undefined,
              );
            }}
          >
            Export CSV
          </a>
        ) : null}
      </div>
      <form className="admin-form-row" onSubmit={submit} aria-label="Filter the audit log">
        <label>
          Who (e-mail) <input value={draft.actor ?? ''} onChange={(event) => setDraft({ ...draft, actor: event.target.value })} />
        </label>
        <label>
          Action <input value={draft.action ?? ''} onChange={(event) => setDraft({ ...draft, action: event.target.value })} />
        </label>
        <label>
          From <input type="date" value={draft.from ?? ''} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </label>
        <label>
          To <input type="date" value={draft.to ?? ''} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </label>
        <button type="submit" className="admin-button-secondary">
          Filter
        </button>
      </form>
      {status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      {status === 'ready' && entries.length === 0 ? <p>No admin action matches.</p> : null}
      {entries.length > 0 ? (
        <div className="admin-table-scroll" role="region" aria-label="Audit log" tabIndex={0}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Role</th>
                <th scope="col">From</th>
                <th scope="col">What</th>
                <th scope="col">Target</th>
                <th scope="col">Result</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.seq}>
                  <td>{entry.seq}</td>
                  <td>
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  </td>
                  <td>{entry.actorEmail ?? 'system'}</td>
                  <td>{entry.actorRole}</td>
                  <td>{entry.ip}</td>
                  <th scope="row">{entry.action}</th>
                  <td>{entry.targetId ? `${entry.targetType ?? ''} ${entry.targetId}` : ''}</td>
                  <td>{entry.status}</td>
                  <td className="admin-audit__details">
                    {entry.before !== null || entry.after !== null ? (
                      <>
                        <div>Before: {changeOf(entry.before)}</div>
                        <div>After: {changeOf(entry.after)}</div>
                      </>
                    ) : (
                      changeOf(entry.details)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {nextBefore !== null ? (
        <button
          type="button"
          className="admin-button-secondary"
          disabled={status === 'loading'}
          onClick={() => void loadAudit(filter, true)}
        >
          Load more
        </button>
      ) : null}
      <StepUpDialog />
    </section>
  );
}
