import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { CONSENT_WORDING } from '@boatshop/contract/constants';
import { formatDate } from '@boatshop/state';
import { $privacy, fetchPrivacy, requestErasure, requestExport, setConsent } from '../privacy/privacy';
import '../styles.css';

/** /account/data: what the shopper agreed to, a download of everything the shop holds, and erasure of the account. */
export default function YourData() {
  const { status, data, notice } = useStore($privacy);

  useEffect(() => {
    void fetchPrivacy();
  }, []);

  return (
    <section aria-labelledby="account-data-title" className="account-page account-data">
      <h1 id="account-data-title">Your data</h1>
      {notice ? (
        <div role={notice.kind === 'error' ? 'alert' : 'status'} className={`account-notice account-notice--${notice.kind}`}>
          {notice.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {status === 'loading' && !data ? (
        <p className="account-muted" role="status">
          Loading…
        </p>
      ) : null}
      {data ? (
        <>
          <fieldset className="account-data__consents">
            <legend>E-mails you agreed to</legend>
            {data.consents.map((consent) => (
              <label key={consent.topic} className="account-data__consent">
                <input
                  type="checkbox"
                  checked={consent.granted}
                  onChange={(event) => void setConsent(consent.topic, event.target.checked)}
                />
                <span>
                  {CONSENT_WORDING[consent.topic]}
                  {consent.recordedAt ? <span className="account-muted"> (answered {formatDate(consent.recordedAt)})</span> : null}
                </span>
              </label>
            ))}
          </fieldset>
          <h3>Download your data</h3>
          <p>An archive of everything we hold about you: profile, orders, payments, invoices, questions and messages, as JSON.</p>
          {data.export?.state === 'ready' ? (
            <p>
              Your archive is ready until {formatDate(data.export.expiresAt)}: the link is in the e-mail we sent you.{' '}
              <span className="account-muted">(For your safety it only works with the link's own key.)</span>
            </p>
          ) : data.export?.state === 'preparing' ? (
            <p className="account-muted" role="status">
              Your archive is being prepared.
            </p>
          ) : null}
          <button type="button" className="bs-button" disabled={data.export?.state === 'preparing'} onClick={() => void requestExport()}>
            Export my data
          </button>
          <h3>Erase your account</h3>
          <p>
            You can no longer sign in, and we delete everything we hold about you except the invoices of your orders, which the law requires
            us to keep for ten years.
          </p>
          {data.erasureBlockers.length > 0 ? (
            <div className="account-notice account-notice--error">
              <p>Your account cannot be erased yet:</p>
              <ul>
                {data.erasureBlockers.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </div>
          ) : data.erasureRequested ? (
            <p className="account-muted" role="status">
              We sent you an e-mail: open its link to confirm.
            </p>
          ) : null}
          <button
            type="button"
            className="bs-button account-button--danger"
            disabled={data.erasureBlockers.length > 0}
            onClick={() => void requestErasure()}
          >
            Erase my account
          </button>
        </>
      ) : null}
    </section>
  );
}
