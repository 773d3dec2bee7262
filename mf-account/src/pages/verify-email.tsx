import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useSearchParams } from 'react-router-dom';
import { $emailVerification, $session, verifyEmail } from '@boatshop/state';
import { ErrorList } from './login-form-parts';
import '../styles.css';

/** /verify-email?token=…: the page the sign-up e-mail links to; it confirms the address at once. */
export default function VerifyEmail() {
  const [searchParams, setSearchParams] = useSearchParams();
  // Read once, then kept in memory only: the token leaves the address bar (history, synced tabs,
  // a shared screen, Referer) at once, as on /password-reset/confirm.
  const [token] = useState(() => searchParams.get('token'));
  useEffect(() => {
    if (!searchParams.has('token')) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete('token');
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams]);
  const state = useStore($emailVerification);
  const { user } = useStore($session);
  // One request per token, also when React runs the effect twice in development.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    void verifyEmail(token);
  }, [token]);

  return (
    <section className="account-page account-auth" aria-labelledby="account-verify-email-title">
      <h1 id="account-verify-email-title">Confirm your e-mail address</h1>
      {!token ? (
        <p>This link has no confirmation token.</p>
      ) : state.status === 'verified' ? (
        <p role="status" className="account-notice account-notice--success">
          Your e-mail address is confirmed. Thank you!
        </p>
      ) : state.status === 'failed' ? (
        <ErrorList errors={state.errors} />
      ) : (
        <p className="account-muted" role="status">
          Confirming your e-mail address…
        </p>
      )}
      <p className="account-auth__links">
        {user ? <Link to="/dashboard">Go to my account</Link> : <Link to="/login">Log in</Link>} · <Link to="/">Continue shopping</Link>
      </p>
    </section>
  );
}
